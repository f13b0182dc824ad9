// Completing what the player types from the server's words (`vocabulary`) and the commands that would
// succeed now (`actions`): Tab completes the word being typed when something fits; otherwise Tab moves on.

const COMMAND_START = /[;.]/;

/** The completions of the last word of `line`: whole strings to put in place of that word (and the rest). */
export function completions(line, vocabulary, actions) {
  const command = line.split(COMMAND_START).pop();
  const word = command.match(/\S*$/)[0];
  const head = command.slice(0, command.length - word.length).toLowerCase().split(/\s+/).filter(Boolean);
  const typed = word.toLowerCase();
  const found = [];
  const offer = (options) => {
    for (const option of options) if (option.toLowerCase().startsWith(typed) && !found.includes(option)) found.push(option);
  };
  // Whole commands that would succeed now, from the word being typed on ("hang cloak on hook").
  const said = head.join(" ");
  for (const action of actions) {
    const lower = action.toLowerCase();
    if (said && !lower.startsWith(`${said} `)) continue;
    const rest = said ? action.slice(said.length + 1) : action;
    if (rest.toLowerCase().startsWith(typed) && !found.includes(rest)) found.push(rest);
  }
  if (!vocabulary) return found;
  if (!head.length) {
    offer(vocabulary.verbs);
    offer(vocabulary.directives);
    offer(vocabulary.directions);
    return found;
  }
  const verb = head[0];
  if ((vocabulary.directed || []).includes(verb)) offer(vocabulary.directions);
  offer(vocabulary.names.flatMap((name) => [name, name.split(" ").pop()]));
  offer((vocabulary.particles || {})[verb] || []);
  return found;
}

/** The longest start every option shares (case as in the first). */
export function sharedStart(options) {
  if (!options.length) return "";
  let end = options[0].length;
  for (const option of options.slice(1)) {
    let i = 0;
    while (i < end && i < option.length && option[i].toLowerCase() === options[0][i].toLowerCase()) i += 1;
    end = i;
  }
  return options[0].slice(0, end);
}
