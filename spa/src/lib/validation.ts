/** Client-side rules that mirror the server's, so people see the same words before sending. */

export const PASSWORD_MIN_LENGTH = 10;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function emailProblem(value: string): string | null {
  if (!value.trim()) return 'Email is required';
  return EMAIL_RE.test(value.trim()) ? null : 'Enter a valid email address';
}

/** Mirrors the server: at least 10 characters with both letters and digits. */
export function passwordProblem(value: string): string | null {
  if (!value) return 'Password is required';
  const problems: string[] = [];
  if (value.length < PASSWORD_MIN_LENGTH) problems.push(`at least ${PASSWORD_MIN_LENGTH} characters`);
  if (!/[A-Za-z]/.test(value) || !/[0-9]/.test(value)) problems.push('both letters and digits');
  return problems.length ? `The password needs ${problems.join(' and ')}` : null;
}

export function requiredProblem(value: unknown, label: string): string | null {
  if (value === null || value === undefined) return `${label} is required`;
  if (typeof value === 'string' && !value.trim()) return `${label} is required`;
  if (Array.isArray(value) && value.length === 0) return `${label} is required`;
  return null;
}

export function urlProblem(value: string): string | null {
  if (!value.trim()) return null;
  try {
    const u = new URL(/^https?:\/\//i.test(value) ? value : `https://${value}`);
    return u.hostname.includes('.') ? null : 'Enter a valid web address, like https://example.com';
  } catch {
    return 'Enter a valid web address, like https://example.com';
  }
}
