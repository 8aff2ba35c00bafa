/**
 * Entry of the chDB worker thread. Built, it runs from dist/*.js. Under vitest it runs from its .ts
 * source by Node's type stripping, which takes `./x.js` specifiers literally: there a resolve hook
 * maps them to the `.ts` file beside, before the thread's modules load.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';

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
await import(new URL(fromSource ? './chdb-thread.ts' : './chdb-thread.js', import.meta.url).href);
