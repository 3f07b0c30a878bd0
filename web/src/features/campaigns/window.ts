/** Rules of the sending window form: the days in the server's words, HH:MM between the time input (which has no
 * 24:00) and the server (where 24:00 is the end of the day), the list of time zones, and a one-line summary. */
import type { SendingWindow } from "@outreach/client/api/types";

export const DAYS = [
  { value: "mon", label: "Mon" },
  { value: "tue", label: "Tue" },
  { value: "wed", label: "Wed" },
  { value: "thu", label: "Thu" },
  { value: "fri", label: "Fri" },
  { value: "sat", label: "Sat" },
  { value: "sun", label: "Sun" },
];

/** The server's 24:00 (end of the day) as the time input's 00:00. */
export function toTimeInput(time: string): string {
  return time === "24:00" ? "00:00" : time;
}

/** A time input's value for the server: an end of 00:00 is midnight at the end of the day. */
export function fromTimeInput(value: string, isEnd: boolean): string {
  return isEnd && value === "00:00" ? "24:00" : value;
}

/** The browser's time zones, with the campaign's own first when the browser does not list it. */
export function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const all = zones.includes("UTC") ? zones : ["UTC", ...zones];
  return all.includes(current) ? all : [current, ...all];
}

/** The user's own time zone, for a new campaign's window. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** "Sends Mon-Fri, 08:00-18:00." with runs of days joined. */
export function windowSummary(window: SendingWindow): string {
  if (window.days.length === 0) return "Choose at least one day to send on.";
  const indexes = DAYS.map((day, index) => (window.days.includes(day.value) ? index : -1)).filter((index) => index >= 0);
  const runs: string[] = [];
  let start = indexes[0];
  for (let position = 1; position <= indexes.length; position++) {
    const index = indexes[position];
    if (index !== indexes[position - 1] + 1) {
      const end = indexes[position - 1];
      runs.push(end - start >= 2 ? `${DAYS[start].label}-${DAYS[end].label}` : DAYS.slice(start, end + 1).map((day) => day.label).join(", "));
      start = index;
    }
  }
  const allDay = window.start === "00:00" && window.end === "24:00";
  const days = runs.length === 1 && runs[0] === "Mon-Sun" ? "every day" : runs.join(", ");
  return allDay ? `Sends ${days}, at any hour.` : `Sends ${days}, ${window.start}-${window.end}.`;
}
