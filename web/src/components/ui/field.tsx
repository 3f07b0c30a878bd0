/** Labelled form controls with their error text. */
import { useId, type InputHTMLAttributes, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

const control = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm";

function Message({ id, error }: { id: string; error?: string | null }) {
  return error ? (
    <p id={id} role="alert" className="mt-1 text-sm text-red-600">
      {error}
    </p>
  ) : null;
}

export function TextField({ label, error, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input id={id} aria-invalid={!!error} aria-describedby={error ? `${id}-error` : undefined} className={control} {...props} />
      <Message id={`${id}-error`} error={error} />
    </div>
  );
}

export function TextArea({ label, error, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string | null; ref?: Ref<HTMLTextAreaElement> }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea id={id} aria-invalid={!!error} aria-describedby={error ? `${id}-error` : undefined} className={control} {...props} />
      <Message id={`${id}-error`} error={error} />
    </div>
  );
}

export function SelectField({ label, options, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className={control} {...props}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
