// The play transcript: what was told, as a polite ARIA log, and the same pages as text or JSON to download.

import { h, blocks } from "./dom.js";

export class Transcript {
  /** element: the log region. Each page: {turn, actor, command, text, blocks, kind}. */
  constructor(element) {
    this.element = element;
    this.pages = [];
  }

  clear() {
    this.pages = [];
    this.element.replaceChildren();
  }

  /** A telling: the opening (command ""), a command's reply, news of others, or the story so far re-told. */
  add(page) {
    this.pages.push(page);
    const entry = h("div", { class: `entry ${page.kind || "reply"}` });
    if (page.note) entry.append(h("p", { class: "note" }, page.note));
    if (page.command) entry.append(h("p", { class: "command" }, h("span", { "aria-hidden": "true" }, "> "), page.command));
    entry.append(...blocks(page.blocks));
    this.element.append(entry);
    this.scroll(entry);
    return entry;
  }

  /** Something the page itself says (someone joined, the connection came back, an error): not part of the story. */
  notice(text, kind = "notice") {
    const entry = h("p", { class: `entry ${kind}` }, text);
    this.element.append(entry);
    this.scroll(entry);
    return entry;
  }

  /** A command typed, shown at once; its reply fills it when it comes. */
  echo(command) {
    const entry = h("div", { class: "entry reply pending" });
    entry.append(h("p", { class: "command" }, h("span", { "aria-hidden": "true" }, "> "), command));
    this.element.append(entry);
    this.scroll(entry);
    return entry;
  }

  answered(entry, page) {
    this.pages.push(page);
    entry.classList.remove("pending");
    entry.append(...blocks(page.blocks));
    this.scroll(entry);
  }

  scroll(entry) {
    entry.scrollIntoView({ block: "end" });
  }

  /** The transcript as text to read: a header, then each page (the opening, each `> command` and its reply). */
  asText(about) {
    const lines = [`Transcript of instance ${about.instance} (${about.world}), turn ${about.turn}`];
    for (const page of this.pages) {
      lines.push(page.command ? `> ${page.command}` : `[${page.kind === "news" ? "news" : "opening"}]`);
      lines.push(page.text);
    }
    return `${lines.join("\n\n")}\n`;
  }

  /** The same as data, in the shape of `curveship export --format json`. */
  asJson(about) {
    const document = {
      instance: about.instance,
      world: about.world,
      title: about.title,
      seed: about.seed ?? null,
      turn: about.turn,
      ended: about.ended,
      pages: this.pages.map((page) => ({
        turn: page.turn,
        actor: page.actor,
        command: page.command || "",
        text: page.text,
        blocks: page.blocks.map((block) => ({ kind: block.kind, text: block.text })),
      })),
    };
    return `${JSON.stringify(document, null, 2)}\n`;
  }
}

/** Offer `text` as a file to save. */
export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
