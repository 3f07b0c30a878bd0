/** Step 3, AI education (A §2, §5): free text and files, saved with the campaign and remembered locally. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { FileButton } from "../../components/ui/file-button";
import { TextArea } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import { aiEducationKeys } from "../../lib/storage";
import { CAMPAIGNS_KEY, uploadEducationFile, type Campaign } from "./api";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";

export const MAX_EDUCATION_BYTES = 10 * 1024 * 1024;
/** The picker lists .doc as A §5 says, so that picking a legacy Word file says at once why it cannot be read. */
const ACCEPTED = [".pdf", ".txt", ".doc", ".docx"];
/** The formats the server reads. */
export const EDUCATION_FILES_LABEL = "Files (PDF, TXT, DOCX; up to 10 MB each)";

/** The spec's texts for a file the picker refuses (A §5); a legacy .doc in the server's own words (issue 83.13). */
export function educationFileError(file: { name: string; size: number }): string | null {
  const name = file.name.toLowerCase();
  if (!ACCEPTED.some((extension) => name.endsWith(extension))) {
    return `${file.name} is not a supported file type. Please upload PDF or text files only.`;
  }
  if (name.endsWith(".doc")) return `${file.name} is a legacy Word .doc file, which cannot be read. Please save it as .docx or PDF and upload it again.`;
  if (file.size > MAX_EDUCATION_BYTES) return `${file.name} is larger than 10MB. Please choose a smaller file.`;
  return null;
}

export function EducationStep({ campaign, onSaved }: { campaign: Campaign | null; onSaved: (education: { text: string; files: string[] }) => void }) {
  const keys = campaign ? aiEducationKeys(campaign.id) : null;
  const [text, setText] = useState(() => (keys ? (localStorage.getItem(keys.text) ?? campaign?.aiEducationText ?? "") : ""));
  const [files, setFiles] = useState<File[]>([]);
  const [saved, setSaved] = useState<string[]>(campaign?.aiEducationFiles ?? []);
  const [error, setError] = useState<string | null>(null);

  const pick = (list: FileList | null) => {
    const chosen = Array.from(list ?? []);
    const refused = chosen.map(educationFileError).find(Boolean);
    setError(refused ?? null);
    setFiles(refused ? [] : chosen);
  };

  const saving = useApiMutation({
    mutationFn: async (target: Campaign) => {
      for (const file of files) await uploadEducationFile(target.id, file);
      const names = Array.from(new Set([...saved, ...files.map((file) => file.name)]));
      return requestJson<Campaign>("PUT", `/api/campaigns/${target.id}`, { aiEducationText: text, aiEducationFiles: names });
    },
    success: { title: "AI education saved" },
    // The server's message says which file it could not read and why.
    failure: { title: "Failed to save AI education" },
    invalidates: [CAMPAIGNS_KEY],
    onSuccess: (updated) => {
      localStorage.setItem(aiEducationKeys(updated.id).text, text);
      localStorage.setItem(aiEducationKeys(updated.id).files, JSON.stringify(updated.aiEducationFiles));
      setSaved(updated.aiEducationFiles);
      setFiles([]);
      onSaved({ text, files: updated.aiEducationFiles });
    },
  });

  const save = () => {
    if (!campaign) {
      toast({ title: "No campaign selected", description: "Choose or create a campaign first.", variant: "destructive" });
      return;
    }
    saving.mutate(campaign);
  };

  return (
    <div className="space-y-3">
      <TextArea label="Teach the AI about your business" rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder="What you offer, to whom, prices, proof, how you work..." />
      <div>
        <label htmlFor="education-files" className="block text-sm font-medium">{EDUCATION_FILES_LABEL}</label>
        <div className="mt-1">
          <FileButton id="education-files" multiple accept={ACCEPTED.join(",")} onFiles={pick}>
            Choose Files
          </FileButton>
        </div>
        {error ? <p role="alert" className="mt-1 text-sm text-red-600">{error}</p> : null}
      </div>
      {saved.length ? (
        <ul aria-label="Saved files" className="flex flex-wrap gap-2 text-sm">
          {saved.map((name) => (
            <li key={name} className="flex items-center gap-1 rounded bg-slate-100 px-2 py-1">
              {name}
              <button aria-label={`Remove ${name}`} onClick={() => setSaved(saved.filter((other) => other !== name))}>✕</button>
            </li>
          ))}
        </ul>
      ) : null}
      <Button disabled={saving.isPending || (!text.trim() && files.length === 0 && saved.length === 0)} onClick={save}>
        Save AI Education
      </Button>
    </div>
  );
}
