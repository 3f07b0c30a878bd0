/** A file picker that looks like the app's buttons: the native input stays in the page for keyboards and screen
 * readers (visually hidden, focus shown on the button), and is emptied after each pick so the same file can be
 * picked again. */
import type { InputHTMLAttributes } from "react";
import { buttonClass } from "./button";

export function FileButton({
  children,
  onFiles,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "onChange" | "className"> & { children: string; onFiles: (files: FileList) => void }) {
  return (
    <label className={`${buttonClass("outline")} cursor-pointer focus-within:ring-2 focus-within:ring-brand focus-within:ring-offset-1`}>
      {children}
      <input
        type="file"
        className="sr-only"
        onChange={(event) => {
          if (event.target.files?.length) onFiles(event.target.files);
          event.target.value = "";
        }}
        {...input}
      />
    </label>
  );
}
