"""The terminal client: a prompt_toolkit prompt with history, completion, key bindings and a toolbar, the story
wrapped to the width and styled, and what others do shown above the line being typed."""
