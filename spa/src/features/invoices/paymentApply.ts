/** What "Apply" shows on the invoice a payment is recorded from: what was received, up to the invoice's
 * open balance, as long as the user has not typed an amount of their own (then theirs stays). */
export function followedApply(received: string, balance: string | number): string {
  const cents = Math.round(Number(received || 0) * 100);
  const open = Math.round(Number(balance || 0) * 100);
  if (!Number.isFinite(cents) || cents <= 0) return '';
  return String(Math.min(cents, open) / 100);
}
