/** The first-run form's reading of a site's password rules (renderer/views/auth/password-policy.ts). */
import { describe, expect, test } from 'vitest';
import { meets, missingRules, policyRules, rulesSentence } from '../../renderer/views/auth/password-policy';

// GET /auth/setup of a real Grav 2 with the API plugin (recording 02)
const GRAV = {
  minLength: 8,
  rules: [
    { label: 'At least 8 characters', pattern: '.{8,}' },
    { label: 'At least one number', pattern: '\\d' },
    { label: 'At least one lowercase letter', pattern: '[a-z]' },
    { label: 'At least one uppercase letter', pattern: '[A-Z]' },
  ],
};

describe('password rules', () => {
  test('each rule is ticked off by what is typed; what is missing is said in one sentence', () => {
    const rules = policyRules(GRAV);
    expect(rules.map((r) => r.label)).toEqual(GRAV.rules.map((r) => r.label));
    expect(rules.map((r) => meets(r, 'correct horse'))).toEqual([true, false, true, false]);
    expect(missingRules(rules, 'correct horse')).toBe('Still needed: at least one number and at least one uppercase letter.');
    expect(missingRules(rules, 'Correct horse 1')).toBeNull();
    expect(missingRules(rules, '')).toBe('Still needed: at least 8 characters, at least one number, at least one lowercase letter and at least one uppercase letter.');
  });

  test('a minimum length no rule names becomes a rule of its own, first', () => {
    const rules = policyRules({ minLength: 12, rules: [{ label: 'At least one number', pattern: '\\d' }] });
    expect(rules.map((r) => r.label)).toEqual(['At least 12 characters', 'At least one number']);
    expect(missingRules(rules, 'short 1')).toBe('Still needed: at least 12 characters.');
  });

  test('a pattern the browser cannot read is left to the site: it never holds the password back', () => {
    const rules = policyRules({ minLength: null, rules: [{ label: 'No repeats', pattern: '(?<!x' }] });
    expect(rules[0]!.test).toBeNull();
    expect(missingRules(rules, 'anything')).toBeNull();
  });

  test('the sentence reads as one: the first rule capitalised, the rest joined with "and"', () => {
    expect(rulesSentence(['At least one number'])).toBe('At least one number.');
    expect(rulesSentence(['A', 'B', 'C'])).toBe('A, b and c.');
    expect(rulesSentence([])).toBe('');
  });
});
