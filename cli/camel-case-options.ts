import { type Command, Help, Option } from 'commander';

/** `--max-tokens` and other long flags of two or more words (never `--no-…`): the ones with a camelCase spelling. */
const KEBAB_LONG = /^--[a-z0-9]+(?:-[a-z0-9]+)+$/;

/** `--max-tokens` → `--maxTokens` (commander stores both under the attribute `maxTokens`). */
export function camelCaseFlag(long: string): string {
  return `--${long.slice(2).replace(/-([a-z0-9])/g, (_match, next: string) => next.toUpperCase())}`;
}

function camelTwinOf(option: Option): string | undefined {
  const long = option.long;
  if (long === undefined || option.hidden || long.startsWith('--no-') || !KEBAB_LONG.test(long)) return undefined;
  return camelCaseFlag(long);
}

/**
 * NeuroLink's CLI takes `--maxTokens` as well as `--max-tokens`: every kebab-case long option of the
 * tree gets a hidden twin spelled in camelCase, with the same argument, parser and choices and no
 * default of its own (so the kebab option's default stays the one value when neither is given).
 * Both write the same attribute, so a command's action never knows which spelling was typed.
 * Run once on the finished tree, so an option added later needs nothing more.
 */
export function acceptCamelCaseOptions(command: Command): void {
  for (const option of [...command.options]) {
    const twin = camelTwinOf(option);
    if (twin === undefined) continue;
    const argument = option.flags.slice(option.flags.indexOf(option.long as string) + (option.long as string).length);
    const alias = new Option(`${twin}${argument}`, option.description).hideHelp();
    if (option.parseArg !== undefined) alias.argParser(option.parseArg);
    if (option.argChoices !== undefined) alias.choices(option.argChoices);
    command.addOption(alias);
  }
  for (const sub of command.commands) acceptCamelCaseOptions(sub);
}

const plainHelp = new Help();

/** Help shows both spellings on one line: `--max-tokens, --maxTokens <n>`. */
export function optionTermWithCamelCase(option: Option): string {
  const twin = camelTwinOf(option);
  const term = plainHelp.optionTerm(option);
  if (twin === undefined) return term;
  const long = option.long as string;
  return term.replace(long, `${long}, ${twin}`);
}
