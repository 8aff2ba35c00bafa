import type { Command, Option } from 'commander';

/** `--max-tokens <n>` (a help option or a hidden camelCase twin is left out). */
function optionUsage(option: Option): string {
  return option.flags.replace(/^-[a-zA-Z], /, '');
}

function usageOf(command: Command, path: readonly string[]): string[] {
  const name = [...path, command.name()].join(' ');
  const aliases = command.aliases().length > 0 ? `|${command.aliases().join('|')}` : '';
  const args = command.registeredArguments.map((argument) => {
    const label = `${argument.name()}${argument.variadic ? '...' : ''}`;
    return argument.required ? `<${label}>` : `[${label}]`;
  });
  const options = command.options.filter((option) => !option.hidden).map((option) => `[${optionUsage(option)}]`);
  return [`switchyard ${name}${aliases}`, ...args, ...options];
}

/** Tokens (an option with its argument is one) to lines of at most `width` characters, continuation lines indented. */
function wrap(tokens: readonly string[], width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of tokens) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * Every runnable command of the tree with its arguments and options, one entry each (wrapped at
 * `width`): the text `switchyard --help` ends with and the README's CLI block, so both list every
 * command and flag and cannot drift from the code.
 */
export function commandIndex(program: Command, width = 100): string {
  const entries: string[] = [];
  const walk = (command: Command, path: readonly string[]) => {
    for (const sub of command.commands) {
      if (sub.commands.length === 0) entries.push(wrap(usageOf(sub, path), width, '    '));
      else walk(sub, [...path, sub.name()]);
    }
  };
  walk(program, []);
  return `${entries.join('\n')}\n`;
}
