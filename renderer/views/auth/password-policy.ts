/**
 * The site's rules for a new account's password (the real Grav API plugin names them in GET
 * /auth/setup) as the setup form uses them: which are met by what is typed, and in words. Pure, so
 * it is tested without a renderer. A pattern the browser's regular expressions cannot read is left
 * to the site to check.
 */
import type { PasswordPolicy } from '../../../electron/contract/index';

export interface PolicyRule {
  label: string;
  /** null: the browser cannot read the site's pattern; the site checks it. */
  test: RegExp | null;
}

/** The policy's rules, its minimum length first when no rule says it already. */
export function policyRules(p: PasswordPolicy): PolicyRule[] {
  const rules = p.rules.map((r) => ({ label: r.label, test: compile(r.pattern) }));
  const saysLength = rules.some((r) => /\d+\s+characters/i.test(r.label));
  if (p.minLength && !saysLength) rules.unshift({ label: `At least ${p.minLength} characters`, test: new RegExp(`^[\\s\\S]{${p.minLength},}$`) });
  return rules;
}

function compile(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

/** Whether `password` meets a rule (a rule the browser cannot check counts as met: the site says). */
export const meets = (rule: PolicyRule, password: string): boolean => rule.test === null || rule.test.test(password);

/** "At least 8 characters, at least one number and at least one uppercase letter." */
export function rulesSentence(labels: string[]): string {
  const words = labels.map((l, i) => (i === 0 ? l : l.charAt(0).toLowerCase() + l.slice(1)));
  const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
  return list ? `${list}.` : '';
}

/** The message for a password that misses rules: "Still needed: at least one number." Null when none is missed. */
export function missingRules(rules: PolicyRule[], password: string): string | null {
  const missing = rules.filter((r) => !meets(r, password)).map((r) => r.label);
  return missing.length ? `Still needed: ${rulesSentence(missing).replace(/^./, (c) => c.toLowerCase())}` : null;
}
