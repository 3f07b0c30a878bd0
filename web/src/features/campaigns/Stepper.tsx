/** The builder's six steps as a stepper (A §2, §4 Step progression): each step done, current or locked, with a
 * one-line summary of what was chosen; a reached step opens on click, arrow keys move between steps. */
import { moveByArrowKeys } from "../../components/ui/roving";

export const STEP_TITLES = ["Campaign", "Find Businesses", "Educate the AI", "Choose Email Template", "Sender Configuration", "Test and Launch"];

export type StepState = "done" | "current" | "locked" | "open";

/** A step's state: the one in view is current, steps past the furthest reached are locked, reached ones before
 * the furthest are done, and a reached one after the one in view is open. */
export function stepState(step: number, inView: number, reached: number): StepState {
  if (step === inView) return "current";
  if (step > reached) return "locked";
  return step < reached ? "done" : "open";
}

export function Stepper({
  inView,
  reached,
  summaries,
  onOpen,
}: {
  inView: number;
  reached: number;
  summaries: (string | null)[];
  onOpen: (step: number) => void;
}) {
  return (
    <nav aria-label="Campaign steps">
      <ol className="grid grid-cols-3 gap-2 md:grid-cols-6" onKeyDown={(event) => moveByArrowKeys(event)}>
        {STEP_TITLES.map((title, index) => {
          const step = index + 1;
          const state = stepState(step, inView, reached);
          const tone =
            state === "current"
              ? "border-brand bg-brand text-white"
              : state === "locked"
                ? "border-slate-200 bg-slate-50 text-slate-400"
                : "border-slate-300 bg-white text-slate-800 hover:border-brand";
          return (
            <li key={title}>
              <button
                type="button"
                className={`flex h-full w-full flex-col rounded-md border px-2 py-1.5 text-left text-xs ${tone}`}
                disabled={state === "locked"}
                aria-current={state === "current" ? "step" : undefined}
                onClick={() => onOpen(step)}
              >
                <span className="font-semibold">
                  {state === "done" ? "✓ " : ""}
                  {step}. {title}
                </span>
                <span className="truncate opacity-80">{state === "locked" ? "Locked" : (summaries[index] ?? "")}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
