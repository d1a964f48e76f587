/**
 * One rule for every statement the app runs: a SQLite error that is about the file or the disk
 * (damaged, full, read-only, I/O; faults.ts) leaves the database layer as one AppError, and the
 * Host is told. It wraps the connection's own entry points (prepare → run/get/all/iterate, exec,
 * pragma, transaction), so a read anywhere — at start, in a background loop, in a handler — is
 * covered without a try at each call site (review M2: the first read at start was outside any).
 */
import type Database from 'better-sqlite3';
import { isAppError } from '../base/app-error';
import { faultError, storageFault, type StorageFault } from './faults';

export type FaultListener = (fault: StorageFault) => void;

type AnyFn = (...args: never[]) => unknown;

export function guardDatabase(db: Database.Database, folder: string, listener: FaultListener): Database.Database {
  const rethrow = (err: unknown): never => {
    if (isAppError(err)) throw err;
    const fault = storageFault(err, folder);
    if (!fault) throw err;
    listener(fault);
    throw faultError(fault, folder, err);
  };
  function guarded<F extends AnyFn>(fn: F, self: unknown): F {
    return function (this: unknown, ...args: Parameters<F>) {
      try {
        return fn.apply(self, args);
      } catch (err) {
        return rethrow(err);
      }
    } as F;
  }
  function guardedIterator<T>(it: IterableIterator<T>): IterableIterator<T> {
    return {
      next: (...a: []) => {
        try {
          return it.next(...a);
        } catch (err) {
          return rethrow(err);
        }
      },
      return: (value?: unknown) => it.return?.(value) ?? { done: true, value: undefined },
      [Symbol.iterator]() {
        return this;
      },
    } as IterableIterator<T>;
  }

  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const stmt = (() => {
      try {
        return prepare(sql);
      } catch (err) {
        return rethrow(err);
      }
    })();
    // own properties shadow the prototype's; pluck()/raw()/expand() answer the same object, so they keep these
    stmt.run = guarded(stmt.run, stmt);
    stmt.get = guarded(stmt.get, stmt);
    stmt.all = guarded(stmt.all, stmt);
    const iterate = guarded(stmt.iterate, stmt);
    stmt.iterate = ((...args: unknown[]) => guardedIterator((iterate as AnyFn)(...(args as never[])) as IterableIterator<unknown>)) as typeof stmt.iterate;
    return stmt;
  }) as typeof db.prepare;
  db.exec = guarded(db.exec, db) as typeof db.exec;
  db.pragma = guarded(db.pragma, db) as typeof db.pragma;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: AnyFn) => {
    const t = transaction(fn as never) as unknown as AnyFn & Record<'deferred' | 'immediate' | 'exclusive', AnyFn>;
    const g = guarded(t, null) as typeof t;
    g.deferred = guarded(t.deferred, null);
    g.immediate = guarded(t.immediate, null);
    g.exclusive = guarded(t.exclusive, null);
    return g;
  }) as typeof db.transaction;
  return db;
}
