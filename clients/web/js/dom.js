// Building elements in a line: h("p", {class: "notice"}, "text", child), and small helpers around them.

/** An element with attributes (on* keys become listeners, false/null are left out) and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      element.className = value;
    } else if (value === true) {
      element.setAttribute(key, "");
    } else {
      element.setAttribute(key, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

let counter = 0;
/** A fresh id for aria-labelledby and label-for links. */
export function uid(prefix = "id") {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** What an error says to a person: the server's own sentence, never a code or a stack. */
export function sentence(error) {
  if (error && typeof error.message === "string" && error.message) return error.message;
  return "Something went wrong.";
}

/** Blocks (headings and paragraphs) as elements; headings at `level`. */
export function blocks(list, level = 3) {
  return list.map((block) =>
    block.kind === "heading" ? h(`h${level}`, { class: "story-heading" }, block.text) : h("p", {}, block.text),
  );
}
