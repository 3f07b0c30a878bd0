/** A/B variants of a template's first email (issue 81): the template's own subject and body are variant A; up to four
 * more (B to E), each a subject and a body. A refusal of the server names its field (`variants[1].subject: ...`) and
 * is shown under that variant. */
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import type { Variant } from "@outreach/client/api/types";
import { BodyEditor as RichTextEditor } from "./BodyEditor";

/** A step holds at most five variants, A included. */
export const MAX_EXTRA_VARIANTS = 4;

/** The variant a server refusal names (`variants[1].body: ...`), and what it says. */
export function variantError(message: string): { index: number; text: string } | null {
  const match = /^variants\[(\d+)\]\.\w+: (.*)$/.exec(message);
  return match ? { index: Number(match[1]), text: match[2] } : null;
}

const letter = (index: number) => String.fromCharCode(66 + index);

export function VariantsEditor({
  variants,
  onChange,
  error,
}: {
  variants: Variant[];
  onChange: (variants: Variant[]) => void;
  error: string | null;
}) {
  const problem = error ? variantError(error) : null;
  const change = (index: number, update: Partial<Variant>) =>
    onChange(variants.map((variant, at) => (at === index ? { ...variant, ...update } : variant)));
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" aria-label="A/B variants">
      <legend className="px-1 text-sm font-semibold">A/B variants</legend>
      <p className="text-xs text-slate-500">
        The subject and body above are variant A. Recipients are split evenly between the variants; the one with the most positive replies
        sends the rest once it is clearly best.
      </p>
      {variants.map((variant, index) => (
        <div key={index} className="space-y-2 rounded border border-slate-100 p-2" data-testid={`variant-${letter(index)}`}>
          <TextField
            label={`Subject of variant ${letter(index)}`}
            value={variant.subject}
            onChange={(event) => change(index, { subject: event.target.value })}
            error={problem?.index === index ? problem.text : null}
          />
          <RichTextEditor label={`Body of variant ${letter(index)}`} value={variant.body} onChange={(body) => change(index, { body })} />
          <Button variant="outline" onClick={() => onChange(variants.filter((_, at) => at !== index))}>
            Remove variant {letter(index)}
          </Button>
        </div>
      ))}
      {error && !problem ? (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
      <Button
        variant="outline"
        disabled={variants.length >= MAX_EXTRA_VARIANTS}
        onClick={() => onChange([...variants, { subject: "", body: "" }])}
      >
        Add variant {letter(variants.length)}
      </Button>
    </fieldset>
  );
}
