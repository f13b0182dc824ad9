// The command line's history, kept in the browser (localStorage): Up for older commands, Down for newer.

const KEY = "curveship.history";
const KEEP = 200;

export class History {
  constructor(storage = window.localStorage) {
    this.storage = storage;
    this.items = this.load();
    this.at = this.items.length; // past the newest: the line being typed
    this.draft = "";
  }

  load() {
    try {
      const items = JSON.parse(this.storage.getItem(KEY) || "[]");
      return Array.isArray(items) ? items.filter((item) => typeof item === "string") : [];
    } catch {
      return [];
    }
  }

  /** A command was sent: remember it (not twice in a row) and go back to a fresh line. */
  add(command) {
    if (command && this.items[this.items.length - 1] !== command) this.items.push(command);
    this.items = this.items.slice(-KEEP);
    try {
      this.storage.setItem(KEY, JSON.stringify(this.items));
    } catch {
      // storage full or refused: the history lasts the page only
    }
    this.at = this.items.length;
    this.draft = "";
  }

  /** The older command, keeping what was being typed; null when there is none. */
  older(current) {
    if (this.at === 0) return null;
    if (this.at === this.items.length) this.draft = current;
    this.at -= 1;
    return this.items[this.at];
  }

  /** The newer command, or the line that was being typed. */
  newer() {
    if (this.at >= this.items.length) return null;
    this.at += 1;
    return this.at === this.items.length ? this.draft : this.items[this.at];
  }
}
