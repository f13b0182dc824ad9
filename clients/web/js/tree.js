// A collapsible tree of a world's items as the WAI-ARIA tree pattern: a `tree` of `treeitem`s, arrow keys to
// move, Right and Left to open and close, Home and End, Enter or Space to toggle; one item in the tab order.

import { h, uid } from "./dom.js";

const OPEN_LEVELS = 4; // levels open at first: the rooms, who and what is in them, and what they hold

/**
 * A tree element for `root` (a node {tag, name, link, kind, children}). `label`: the tree's accessible name.
 * `mark(node)`: a short text to flag the node with (e.g. "only the teller knows"), or null.
 */
export function treeView(root, { label, mark = () => null } = {}) {
  const tree = h("ul", { role: "tree", "aria-label": label, class: "tree" });
  tree.append(item(root, 1, mark));
  const items = () => [...tree.querySelectorAll('[role="treeitem"]')].filter(visible);
  const first = tree.querySelector('[role="treeitem"]');
  first.tabIndex = 0;

  function focus(target) {
    for (const other of tree.querySelectorAll('[role="treeitem"][tabindex="0"]')) other.tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
  }

  tree.addEventListener("click", (event) => {
    const toggle = event.target.closest(".twisty");
    const target = event.target.closest('[role="treeitem"]');
    if (!target) return;
    if (toggle) setOpen(target, target.getAttribute("aria-expanded") !== "true");
    focus(target);
    event.stopPropagation();
  });

  tree.addEventListener("keydown", (event) => {
    const current = event.target.closest('[role="treeitem"]');
    if (!current) return;
    const list = items();
    const at = list.indexOf(current);
    const expanded = current.getAttribute("aria-expanded");
    let handled = true;
    switch (event.key) {
      case "ArrowDown":
        if (at < list.length - 1) focus(list[at + 1]);
        break;
      case "ArrowUp":
        if (at > 0) focus(list[at - 1]);
        break;
      case "Home":
        focus(list[0]);
        break;
      case "End":
        focus(list[list.length - 1]);
        break;
      case "ArrowRight":
        if (expanded === "false") setOpen(current, true);
        else if (expanded === "true") focus(current.querySelector('[role="treeitem"]'));
        break;
      case "ArrowLeft": {
        const parent = current.parentElement.closest('[role="treeitem"]');
        if (expanded === "true") setOpen(current, false);
        else if (parent) focus(parent);
        break;
      }
      case "Enter":
      case " ":
        if (expanded !== null) setOpen(current, expanded !== "true");
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  });
  return tree;
}

function item(node, level, mark) {
  const labelId = uid("node");
  const flag = mark(node);
  const children = node.children || [];
  const label = h(
    "span",
    { class: "node", id: labelId },
    h("span", { class: "twisty", "aria-hidden": "true" }),
    h("span", { class: "name" }, node.name),
    " ",
    h("span", { class: "tag" }, node.tag),
    node.kind ? h("span", { class: `kind kind-${node.kind}` }, node.kind) : null,
    node.link ? h("span", { class: "link" }, node.link.replace(/_/g, " ")) : null,
    flag ? h("mark", { class: "only" }, flag) : null,
  );
  const element = h(
    "li",
    {
      role: "treeitem",
      "aria-labelledby": labelId,
      "aria-level": level,
      tabindex: -1,
      "data-tag": node.tag,
      class: flag ? "marked" : null,
    },
    label,
  );
  if (children.length) {
    element.setAttribute("aria-expanded", level < OPEN_LEVELS ? "true" : "false");
    element.append(h("ul", { role: "group" }, children.map((child) => item(child, level + 1, mark))));
  }
  return element;
}

function setOpen(element, open) {
  if (element.getAttribute("aria-expanded") === null) return;
  element.setAttribute("aria-expanded", open ? "true" : "false");
}

function visible(element) {
  let parent = element.parentElement.closest('[role="treeitem"]');
  while (parent) {
    if (parent.getAttribute("aria-expanded") === "false") return false;
    parent = parent.parentElement.closest('[role="treeitem"]');
  }
  return true;
}

/** Every tag in a tree, with its node. */
export function tagsOf(root, found = new Map()) {
  found.set(root.tag, root);
  for (const child of root.children || []) tagsOf(child, found);
  return found;
}
