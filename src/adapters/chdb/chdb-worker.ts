/**
 * Entry of the chDB worker threads (the one that writes, and its reader). Built, it runs from
 * dist/*.js. Under vitest it runs from its .ts source by Node's type stripping, which takes
 * `./x.js` specifiers literally: there a resolve hook maps them to the `.ts` file beside, before
 * the thread's modules load.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { workerData } from 'node:worker_threads';

const fromSource = import.meta.url.endsWith('.ts');
if (fromSource) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL !== undefined) {
        const source = new URL(`${specifier.slice(0, -'.js'.length)}.ts`, context.parentURL);
        if (existsSync(source)) return nextResolve(source.href, context);
      }
      return nextResolve(specifier, context);
    },
  });
}
// Before chDB loads: the threads it starts from this one (inserts, merges) inherit the priority.
// Imported here, not above, so that from source the hook resolves it.
const { analyticsThreadNice, lowerThreadPriority } = await import('./thread-priority.js');
lowerThreadPriority(analyticsThreadNice);
// The same entry serves the writing thread and its reader (workerData.role), so both get the hook and the priority.
const body = (workerData as { readonly role?: string } | null)?.role === 'reader' ? 'chdb-reader' : 'chdb-thread';
await import(new URL(`./${body}.${fromSource ? 'ts' : 'js'}`, import.meta.url).href);
