/** Rules of the Responses screen (B §2.9, §5): the test form's messages and the sentiment bars' widths (the words
 * for readings and the editing of an answer are shared with the inbox, in lib/replies). */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The test form's first problem, in B §5's words; null when it may be sent. */
export function testFormError(form: { from: string; subject: string; body: string }): string | null {
  if (!EMAIL.test(form.from.trim())) return "Please enter a valid email address";
  if (form.subject.trim() === "") return "Subject is required";
  if (form.body.trim().length < 10) return "Response body must be at least 10 characters";
  return null;
}

/** Each sentiment's share of the readings, in whole percent (0 when there are none). */
export function sentimentShares(breakdown: { positive: number; neutral: number; negative: number }) {
  const total = breakdown.positive + breakdown.neutral + breakdown.negative;
  const share = (count: number) => (total === 0 ? 0 : Math.round((count / total) * 100));
  return { positive: share(breakdown.positive), neutral: share(breakdown.neutral), negative: share(breakdown.negative), total };
}
