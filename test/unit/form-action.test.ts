/**
 * FormAction (renderer/lib/form-action.svelte.ts): the one class every form and action button of
 * the renderer runs its calls through. Field messages land under the form's fields by the shared
 * mapping, the rest in the alert; a rate limit is a message, a countdown, or a countdown and one
 * retry, never a loop.
 */
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { FormAction, looseMessages } from '../../renderer/lib/form-action.svelte';
import { AppError } from '../../renderer/lib/errors';
import { inRoot, stopRoots } from './support/effect-root.svelte';

afterEach(() => stopRoots());

const invalid = (fields: Record<string, string>) => new AppError({ code: 'invalid_input', message: 'The input was not accepted.', fields });
const limited = (retryAfter: number) => new AppError({ code: 'rate_limited', message: 'Too many requests.', retryAfter });

describe('FormAction fields', () => {
  test('by default a message stays under its dotted path and nothing goes to the alert', async () => {
    const f = inRoot(() => new FormAction());
    const out = await f.run(() => Promise.reject(invalid({ name: 'Give it a name.', 'photoUrls.1': 'Not an address.' })));
    expect(out).toBeNull();
    expect(f.fields).toEqual({ name: 'Give it a name.', 'photoUrls.1': 'Not an address.' });
    expect(f.error).toBeNull();
    expect(f.busy).toBe(false);
  });

  test('with names, a message goes under the field its path ends in; the rest go to the alert', async () => {
    const f = inRoot(() => new FormAction({ fields: ['username', 'password'] as const }));
    await f.run(() => Promise.reject(invalid({ 'credentials.username': 'Required.', siteId: 'Unknown site.' })));
    expect(f.fields).toEqual({ username: 'Required.' });
    expect(f.error).toBe('Unknown site.');
  });

  test("with a map, the Host's field names go under the form's", async () => {
    const f = inRoot(() => new FormAction({ fields: { route: 'slug', slug: 'slug', title: 'title' } }));
    await f.run(() => Promise.reject(invalid({ route: 'Taken.', title: 'Too long.' })));
    expect(f.fields).toEqual({ slug: 'Taken.', title: 'Too long.' });
    expect(f.error).toBeNull();
    expect(f.hasErrors).toBe(true);
  });

  test('an error without fields is the alert; the next run clears it', async () => {
    const f = inRoot(() => new FormAction({ fields: ['code'] as const }));
    await f.run(() => Promise.reject(new AppError({ code: 'network', message: 'The site did not answer.' })));
    expect(f.error).toBe('The site did not answer.');
    expect(await f.run(() => Promise.resolve(7))).toBe(7);
    expect(f.error).toBeNull();
    expect(f.hasErrors).toBe(false);
  });

  test('attempt answers the error; onError may take it over', async () => {
    const f = inRoot(() => new FormAction());
    const err = new AppError({ code: 'not_found', message: 'No such user.' });
    const outcome = await f.attempt(() => Promise.reject(err), (e) => e.code === 'not_found');
    expect(outcome).toEqual({ ok: false, error: err });
    expect(f.error).toBeNull();
  });

  test('check puts the schema messages under the fields (a prefix dropped) before anything is sent', () => {
    const schema = v.object({ user: v.object({ name: v.pipe(v.string(), v.minLength(1, 'Give a name.')), email: v.pipe(v.string(), v.email('Not an email.')) }) });
    const f = inRoot(() => new FormAction());
    expect(f.check(schema, { user: { name: '', email: 'x' } }, 'user.')).toBe(false);
    expect(f.fields).toEqual({ name: 'Give a name.', email: 'Not an email.' });
    expect(f.check(schema, { user: { name: 'a', email: 'ann@example.com' } })).toBe(true);
  });

  test('clearField and setField', () => {
    const f = inRoot(() => new FormAction<'a' | 'b'>({ fields: ['a', 'b'] as const }));
    f.setField('a', 'one');
    f.setField('b', 'two');
    f.clearField('a');
    expect(f.fields).toEqual({ b: 'two' });
  });

  test('alertWithFields: the refusal\'s own message in the alert, the fields under their fields', async () => {
    const f = inRoot(() => new FormAction({ alertWithFields: true }));
    await f.run(() => Promise.reject(invalid({ 'header.date': 'Not a date.' })));
    expect(f.fields).toEqual({ 'header.date': 'Not a date.' });
    expect(f.error).toBe('The input was not accepted.');
    const named = inRoot(() => new FormAction({ fields: ['title'] as const, alertWithFields: true }));
    await named.run(() => Promise.reject(invalid({ title: 'Too long.', siteId: 'Unknown site.' })));
    expect(named.fields).toEqual({ title: 'Too long.' });
    expect(named.error).toBe('The input was not accepted. Unknown site.');
  });

  test('looseMessages: what no field of the form shows', () => {
    expect(looseMessages({ name: 'x', 'tags.0': 'y', other: 'z' }, ['name', 'tags.'])).toEqual(['z']);
  });
});

describe('FormAction and the rate limit', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test("'message' shows the 429's words and starts no countdown", async () => {
    const f = inRoot(() => new FormAction());
    await f.run(() => Promise.reject(limited(5)));
    expect(f.error).toBe('Too many requests.');
    expect(f.limited).toBe(false);
  });

  test("'wait' counts down, refuses a run meanwhile, then says the person may try again", async () => {
    const f = inRoot(() => new FormAction({ rateLimit: 'wait' }));
    const call = vi.fn(() => Promise.reject(limited(3)));
    const outcome = await f.attempt(call);
    expect(outcome?.ok).toBe(false);
    expect(f.limited).toBe(true);
    expect(f.blocked).toBe(true);
    expect(f.waitFor).toBe(3);
    expect(await f.run(() => Promise.resolve(1))).toBeNull(); // blocked
    await vi.advanceTimersByTimeAsync(3_500);
    expect(f.limited).toBe(false);
    expect(f.waited).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
  });

  test("'retry' sends the same call once more after the wait, and only once", async () => {
    const f = inRoot(() => new FormAction({ rateLimit: 'retry' }));
    const call = vi.fn().mockRejectedValueOnce(limited(2)).mockResolvedValueOnce('done');
    const running = f.run(call);
    await vi.advanceTimersByTimeAsync(0);
    expect(f.retrying).toBe(true);
    expect(f.limitMessage).toBe('Too many requests.');
    await vi.advanceTimersByTimeAsync(2_500);
    expect(await running).toBe('done');
    expect(call).toHaveBeenCalledTimes(2);
    expect(f.limitMessage).toBeNull();

    const again = vi.fn(() => Promise.reject(limited(2)));
    const second = f.run(again);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(await second).toBeNull();
    expect(again).toHaveBeenCalledTimes(2); // the retry was refused too: no third send
    expect(f.limited).toBe(true);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(again).toHaveBeenCalledTimes(2);
  });

  test('cancel drops a pending retry', async () => {
    const f = inRoot(() => new FormAction({ rateLimit: 'retry' }));
    const call = vi.fn(() => Promise.reject(limited(10)));
    const running = f.run(call);
    await vi.advanceTimersByTimeAsync(0);
    f.cancel();
    expect(await running).toBeNull();
    expect(f.limited).toBe(false);
    await vi.advanceTimersByTimeAsync(11_000);
    expect(call).toHaveBeenCalledTimes(1);
  });
});

describe('FormAction and who stops it', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  // what the component's end did is read off the countdown's timer: `waited` turns true only when a
  // wait runs out (the deriveds of a class made in a root are not read after the root is gone)
  test('by default it needs a component (an effect) and stops with it', async () => {
    expect(() => new FormAction()).toThrow();
    const f = inRoot(() => new FormAction({ rateLimit: 'wait' }));
    await f.run(() => Promise.reject(limited(30)));
    expect(f.limited).toBe(true);
    stopRoots();
    await vi.advanceTimersByTimeAsync(31_000);
    expect(f.waited).toBe(false); // stopped, not run out
  });

  test("disposeWith 'owner': made outside any component, stopped only by its owner's dispose()", async () => {
    const f = new FormAction({ rateLimit: 'wait', disposeWith: 'owner' });
    const call = vi.fn(() => Promise.reject(limited(30)));
    await f.run(call);
    expect(f.limited).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(f.wait.seconds).toBe(25);
    f.dispose();
    expect(f.limited).toBe(false);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(f.waited).toBe(false); // stopped, not run out
    expect(call).toHaveBeenCalledTimes(1);

    // made inside a component it is still the owner's: the component's end leaves its wait running
    const owned = inRoot(() => new FormAction({ rateLimit: 'wait', disposeWith: 'owner' }));
    await owned.run(() => Promise.reject(limited(30)));
    stopRoots();
    await vi.advanceTimersByTimeAsync(31_000);
    expect(owned.waited).toBe(true);
  });

  test("an owner's dispose() drops a pending retry unsent", async () => {
    const f = new FormAction({ rateLimit: 'retry', disposeWith: 'owner' });
    const call = vi.fn(() => Promise.reject(limited(10)));
    const running = f.run(call);
    await vi.advanceTimersByTimeAsync(0);
    expect(f.retrying).toBe(true);
    f.dispose();
    expect(await running).toBeNull();
    await vi.advanceTimersByTimeAsync(11_000);
    expect(call).toHaveBeenCalledTimes(1);
  });
});

describe('a refused input key named like an inherited member', () => {
  test('constructor or toString is refused at its own field, not dropped', () => {
    const f = inRoot(() => new FormAction());
    const schema = v.strictObject({ name: v.string() });
    expect(f.check(schema, JSON.parse('{"name": "x", "toString": 2}'))).toBe(false);
    expect(Object.keys(f.fields)).toEqual(['toString']);
    expect(f.check(schema, JSON.parse('{"name": "x", "constructor": 1}'))).toBe(false);
    expect(Object.keys(f.fields)).toEqual(['constructor']);
  });
});
