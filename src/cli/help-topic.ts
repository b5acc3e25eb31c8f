/**
 * `help <topic>` where the topic is no command. Commander answers `svc-proxy help bogus` (and
 * `svc-proxy key help bogus`) with the whole help and not a word about the mistake; the words are
 * rewritten to what the user would get without `help` — `svc-proxy bogus`, `svc-proxy key bogus` —
 * which commander answers with "unknown command", a suggestion and exit 2.
 */

/** What is read of a commander Command. */
export interface CommandNode {
  name(): string;
  aliases(): string[];
  readonly commands: readonly CommandNode[];
}

function child(cmd: CommandNode, word: string): CommandNode | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** The words to parse instead of `args` (argv after node and the script), or `undefined` to parse them as they are. */
export function unknownHelpTopic(program: CommandNode, args: readonly string[]): string[] | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  const path: string[] = [];
  let cmd = program;
  let helping = false;
  for (const word of words) {
    if (cmd.commands.length === 0) return undefined;
    if (word === 'help' && !helping) {
      helping = true;
      continue;
    }
    const next = child(cmd, word);
    if (!next) return helping ? [...path, word] : undefined;
    path.push(word);
    cmd = next;
  }
  return undefined;
}
