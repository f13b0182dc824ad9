// The spin explorer: a control for every spin field, the named spins, and the story so far re-told under the
// chosen spin beside the telling as it was, the differences marked; "Keep this spin" makes it the session's.

import { h, fill, uid, sentence } from "./dom.js";
import { shared, tokens } from "./diff.js";

const NONE = "none";
const NUMBER = "number…";
const BREAK = "\u2029"; // a token between blocks, shared by both tellings, so blocks line up in the diff

/** A field's label: its name as words, capitalised ("time_words" -> "Time words"). */
export function labelOf(name) {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What each spin field is, from the Spin schema of the discovery document: how to show it (select, checkbox,
 * number, text, or several choices), its values, default and description. Without a schema (an older
 * server), guessed from the values of the session's spin and of the named spins.
 */
export function describeFields(schema, spin, named) {
  if (schema && schema.properties) {
    return Object.entries(schema.properties).map(([name, property]) => fromSchema(name, property, schema));
  }
  return Object.keys(spin).map((name) => guessed(name, spin, named));
}

function variantsOf(property, root) {
  const list = property.anyOf || property.oneOf || [property];
  return list.flatMap((variant) => {
    if (variant.$ref && root && root.$defs) return variantsOf(root.$defs[variant.$ref.split("/").pop()] || {}, root);
    if (variant.anyOf || variant.oneOf) return variantsOf(variant, root);
    if (Array.isArray(variant.type)) return variant.type.map((type) => ({ ...variant, type }));
    return [variant];
  });
}

function fromSchema(name, property, root) {
  const variants = variantsOf(property, root);
  const field = {
    name,
    label: labelOf(name),
    description: property.description || "",
    default: property.default,
    nullable: false,
    values: [],
    number: null,
    actors: false,
    focalizerRole: false,
    kind: "text",
  };
  for (const variant of variants) {
    if (variant.type === "null" || variant.const === null) field.nullable = true;
    for (const value of variant.enum || (variant.const !== undefined ? [variant.const] : [])) {
      if (value === null) field.nullable = true;
      else field.values.push(value);
    }
    if (variant.type === "boolean") field.kind = "checkbox";
    if (variant.type === "number" || variant.type === "integer") {
      field.number = {
        integer: variant.type === "integer",
        min: variant.minimum ?? variant.exclusiveMinimum,
        max: variant.maximum ?? variant.exclusiveMaximum,
      };
    }
    if (variant.type === "array") {
      field.kind = "several";
      const items = variantsOf(variant.items || {}, root);
      field.values = items.flatMap((item) => item.enum || []);
    }
    if (variant.type === "string" && !variant.enum && variant.pattern) {
      if (variant.pattern.includes("@")) field.actors = true;
      if (variant.pattern.includes("focalizer")) field.focalizerRole = true;
      field.pattern = variant.pattern;
    }
  }
  if (field.kind === "checkbox" || field.kind === "several") return field;
  if (field.actors || field.values.length) field.kind = "select";
  else if (field.number) field.kind = "number";
  return field;
}

function guessed(name, spin, named) {
  const value = spin[name];
  const seen = new Set([value, ...named.map((one) => one.spin[name]).filter((one) => one !== undefined)]);
  const field = { name, label: labelOf(name), description: "", default: undefined, nullable: false, values: [] };
  field.number = null;
  if (typeof value === "boolean") return { ...field, kind: "checkbox" };
  if (typeof value === "number") return { ...field, kind: "number", number: { min: 0 } };
  if (Array.isArray(value)) {
    const values = [...new Set(named.flatMap((one) => one.spin[name] || []))];
    return { ...field, kind: "several", values };
  }
  const strings = [...seen].filter((one) => typeof one === "string");
  if (value === null || strings.some((one) => one.startsWith("@"))) {
    return { ...field, kind: "select", nullable: true, actors: true, focalizerRole: seen.has("focalizer") };
  }
  if (name === "ellipsis") return { ...field, kind: "text" };
  return { ...field, kind: "select", values: strings };
}

/** A spin value as the address holds it: "after", "none", "true", "hesitant,surprise". */
function written(value) {
  if (value === null || value === undefined) return NONE;
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

/** A value read back from the address, by the field's kind. */
function read(field, text) {
  if (field.kind === "checkbox") return text === "true";
  if (field.kind === "several") return text ? text.split(",").filter(Boolean) : [];
  if (text === NONE && (field.nullable || field.actors)) return null;
  if (field.values.includes(text)) return text;
  if (field.number && text.trim() !== "" && !Number.isNaN(Number(text))) return Number(text);
  return text;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class SpinExplorer {
  /**
   * conn: the Connection. session: {actor, interactive, author, focalizers, actors (Map tag -> name)}.
   * schema: the Spin schema (or null). named: the `spins` list. onChange(overrides): told each new candidate,
   * to keep it in the page's address. onKept(spin): told when the session's spin changed.
   */
  constructor({ conn, session, schema, named, onChange, onKept }) {
    this.conn = conn;
    this.session = session;
    this.schema = schema;
    this.named = named;
    this.onChange = onChange || (() => {});
    this.onKept = onKept || (() => {});
    this.base = null; // the session's spin
    this.candidate = null; // the spin being tried
    this.controls = new Map(); // field name -> {field, get, set}
    this.asked = 0; // the latest retelling asked for; older answers are dropped
    this.element = this.build();
  }

  build() {
    this.status = h("p", { class: "explorer-status", role: "status" });
    this.error = h("p", { class: "error", role: "alert" });
    this.form = h("form", { class: "spin-controls", "aria-label": "Spin settings" });
    this.form.addEventListener("submit", (event) => event.preventDefault());
    this.namedList = h("div", { class: "named-spins", role: "group", "aria-label": "Named spins" });
    this.before = h("div", { class: "telling", "aria-label": "As it was told" });
    this.after = h("div", { class: "telling", "aria-live": "polite", "aria-label": "Re-told" });
    this.keep = h("button", { type: "button", onclick: () => this.keepSpin() }, "Keep this spin");
    this.reset = h("button", { type: "button", class: "secondary", onclick: () => this.choose({}) }, "Reset");
    this.link = h("a", { href: "#", class: "share" }, "Link to this telling");
    const beforeHeading = uid("h");
    const afterHeading = uid("h");
    return h(
      "div",
      { class: "explorer" },
      h(
        "p",
        { class: "lede" },
        "Change any setting and the story so far is re-told at once, beside the telling as it was. ",
        "Words only in the re-telling are underlined; words it drops are struck through.",
      ),
      h("h3", {}, "Named spins"),
      this.namedList,
      h("h3", {}, "Settings"),
      this.form,
      h("div", { class: "explorer-actions" }, this.keep, this.reset, this.link),
      this.status,
      this.error,
      h(
        "div",
        { class: "side-by-side" },
        h(
          "section",
          { "aria-labelledby": beforeHeading },
          h("h3", { id: beforeHeading }, "As it was told"),
          this.before,
        ),
        h("section", { "aria-labelledby": afterHeading }, h("h3", { id: afterHeading }, "Re-told"), this.after),
      ),
    );
  }

  /** Load the session's spin, draw the controls and tell both sides; `overrides` from the address, if any. */
  async start(overrides = {}) {
    const { spin } = await this.conn.call("spin");
    this.base = spin;
    this.fields = describeFields(this.schema, spin, this.named);
    this.drawNamed();
    this.drawControls();
    await this.choose(overrides, { quiet: true });
  }

  /** The settings of the candidate that differ from the session's spin. */
  overrides() {
    const changed = {};
    for (const [name, value] of Object.entries(this.candidate)) {
      if (!same(value, this.base[name])) changed[name] = value;
    }
    return changed;
  }

  /** Overrides as the page's address carries them. */
  written() {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(this.overrides())) params.set(name, written(value));
    return params.toString();
  }

  /** Overrides read from the page's address (unknown fields are left to the server to name). */
  readAddress(text) {
    const params = new URLSearchParams(text);
    const byName = new Map((this.fields || []).map((field) => [field.name, field]));
    const found = {};
    for (const [name, value] of params) {
      const field = byName.get(name) || { kind: "text", values: [], nullable: true, actors: false };
      found[name] = read(field, value);
    }
    return found;
  }

  drawNamed() {
    fill(
      this.namedList,
      this.named.map((one) =>
        h(
          "button",
          {
            type: "button",
            class: "named",
            title: one.summary,
            "aria-description": one.summary, // the summary read out with the name, not only on hover
            onclick: () => this.applyNamed(one),
          },
          one.name.replace(/_/g, " "),
        ),
      ),
    );
  }

  applyNamed(one) {
    const next = { ...this.candidate };
    for (const [name, value] of Object.entries(one.spin)) {
      // A named spin's filters add to those in force, as the server applies them.
      next[name] = name === "filters" ? [...new Set([...(next.filters || []), ...value])] : value;
    }
    this.status.textContent = one.summary;
    this.choose(this.diff(next));
  }

  diff(spin) {
    const changed = {};
    for (const [name, value] of Object.entries(spin)) if (!same(value, this.base[name])) changed[name] = value;
    return changed;
  }

  drawControls() {
    this.controls.clear();
    fill(
      this.form,
      this.fields.map((field) => this.control(field)),
    );
  }

  /** Why this session may not choose `value` for `field`, or null when it may. */
  refusal(field, value) {
    const { interactive, author, focalizers, actor } = this.session;
    if (author || !interactive) return null;
    if (field.name === "focalizer" && value !== null && !(focalizers || [actor]).includes(value)) {
      return "In an interactive world the story is told only through your own actor.";
    }
    if (field.name === "commanded" && value !== null && value !== actor) {
      return "You command only your own actor.";
    }
    return null;
  }

  actorOptions(field) {
    const options = [];
    if (field.nullable || field.actors) options.push({ value: null, text: NONE });
    if (field.focalizerRole) options.push({ value: "focalizer", text: "focalizer (whoever it is told through)" });
    for (const [tag, name] of this.session.actors) options.push({ value: tag, text: `${tag} (${name})` });
    return options;
  }

  control(field) {
    const id = uid(`spin-${field.name}`);
    const hintId = uid("hint");
    // The description's first sentence: one ending in . ! or ? (and a closing quote) before a space, so "0.5"
    // and a quoted example's full stop do not cut it short.
    const firstSentence = (field.description.match(/^[\s\S]*?[.!?]["”’]?(?=\s|$)/) || [field.description])[0];
    const hint = h("p", { class: "hint", id: hintId, title: field.description }, firstSentence);
    const changed = () => this.controlChanged(field);
    let element;
    let get;
    let set;
    if (field.kind === "checkbox") {
      const box = h("input", { type: "checkbox", id, "aria-describedby": hintId, onchange: changed });
      get = () => box.checked;
      set = (value) => {
        box.checked = Boolean(value);
      };
      element = h("div", { class: "field check" }, box, h("label", { for: id }, field.label), hint);
    } else if (field.kind === "several") {
      const boxes = field.values.map((value) => {
        const boxId = uid("opt");
        const box = h("input", { type: "checkbox", id: boxId, value, onchange: changed });
        return { value, box, label: h("label", { for: boxId, class: "choice" }, box, " ", value.replace(/_/g, " ")) };
      });
      get = () => boxes.filter((one) => one.box.checked).map((one) => one.value);
      set = (value) => {
        for (const one of boxes) one.box.checked = (value || []).includes(one.value);
      };
      element = h(
        "fieldset",
        { class: "field several", "aria-describedby": hintId },
        h("legend", {}, field.label),
        boxes.map((one) => one.label),
        hint,
      );
    } else if (field.kind === "select") {
      const options = field.actors
        ? this.actorOptions(field)
        : [
            ...(field.nullable ? [{ value: null, text: NONE }] : []),
            ...field.values.map((value) => ({ value, text: String(value) })),
          ];
      const select = h("select", { id, "aria-describedby": hintId, onchange: changed });
      const reasons = [];
      for (const option of options) {
        const why = this.refusal(field, option.value);
        if (why) reasons.push(why);
        select.append(
          h("option", { value: written(option.value), disabled: Boolean(why) }, option.text + (why ? " (not yours)" : "")),
        );
      }
      let number = null;
      if (field.number) {
        select.append(h("option", { value: NUMBER }, field.name === "time" ? "an event number…" : "a number…"));
        number = h("input", {
          type: "number",
          id: `${id}-n`,
          class: "number",
          "aria-label": `${field.label} (number)`,
          min: field.number.min,
          max: field.number.max,
          step: field.number.integer ? 1 : "any",
          hidden: true,
          onchange: changed,
        });
      }
      const usable = options.filter((option) => !this.refusal(field, option.value));
      const reason = [...new Set(reasons)].join(" ");
      if (reason && usable.length <= 2 && field.name === "focalizer") select.disabled = true;
      if (reason && usable.length <= 2 && field.name === "commanded") select.disabled = true;
      get = () => {
        if (select.value === NUMBER) return number.value === "" ? null : Number(number.value);
        return read(field, select.value);
      };
      set = (value) => {
        const text = written(value);
        const known = [...select.options].some((option) => option.value === text);
        if (typeof value === "number" && number) {
          select.value = NUMBER;
          number.value = String(value);
        } else if (!known) {
          select.append(h("option", { value: text }, text));
          select.value = text;
        } else {
          select.value = text;
        }
        if (number) number.hidden = select.value !== NUMBER;
      };
      element = h(
        "div",
        { class: "field" },
        h("label", { for: id }, field.label),
        select,
        number,
        reason ? h("p", { class: "reason", id: uid("why") }, reason) : null,
        hint,
      );
      if (reason) select.setAttribute("aria-describedby", `${hintId} ${element.querySelector(".reason").id}`);
    } else {
      const input = h("input", {
        type: field.kind === "number" ? "number" : "text",
        id,
        "aria-describedby": hintId,
        min: field.number?.min,
        max: field.number?.max,
        step: field.kind === "number" ? (field.number?.max <= 1 ? 0.05 : field.number?.integer ? 1 : "any") : null,
        onchange: changed,
      });
      get = () => {
        if (field.kind === "number") return input.value === "" ? null : Number(input.value);
        return input.value;
      };
      set = (value) => {
        input.value = value === null || value === undefined ? "" : String(value);
      };
      element = h("div", { class: "field" }, h("label", { for: id }, field.label), input, hint);
    }
    this.controls.set(field.name, { field, get, set });
    return element;
  }

  controlChanged(field) {
    const control = this.controls.get(field.name);
    const next = { ...this.candidate, [field.name]: control.get() };
    this.status.textContent = "";
    this.choose(this.diff(next));
  }

  /** Try `overrides` over the session's spin: set the controls, the address, and tell it. */
  async choose(overrides, { quiet = false } = {}) {
    this.candidate = { ...this.base, ...overrides };
    for (const [name, control] of this.controls) control.set(this.candidate[name]);
    const address = this.written();
    this.link.href = `${location.pathname}${location.search}${address ? `#${address}` : ""}`;
    this.keep.disabled = !address;
    this.reset.disabled = !address;
    this.onChange(address, quiet);
    await this.tell();
  }

  /** Tell the story so far both ways and mark what differs. */
  async tell() {
    const asked = ++this.asked;
    const overrides = this.overrides();
    this.error.textContent = "";
    this.after.setAttribute("aria-busy", "true");
    try {
      const [before, after] = await Promise.all([
        this.conn.call("narrate", {}),
        Object.keys(overrides).length ? this.conn.call("narrate", { spin: overrides }) : null,
      ]);
      if (asked !== this.asked) return;
      this.show(before.blocks, (after || before).blocks);
    } catch (error) {
      if (asked !== this.asked) return;
      this.error.textContent = sentence(error);
    } finally {
      if (asked === this.asked) this.after.removeAttribute("aria-busy");
    }
  }

  show(beforeBlocks, afterBlocks) {
    const flatten = (list) => list.flatMap((block, index) => [...(index ? [BREAK] : []), ...tokens(block.text)]);
    const a = flatten(beforeBlocks);
    const b = flatten(afterBlocks);
    const [keptA, keptB] = shared(a, b);
    fill(this.before, render(beforeBlocks, a, keptA, "del"));
    fill(this.after, render(afterBlocks, b, keptB, "ins"));
  }

  /** A new turn was told: both sides again. */
  async refresh() {
    if (this.candidate) await this.tell();
  }

  async keepSpin() {
    const overrides = this.overrides();
    this.error.textContent = "";
    try {
      const { spin } = await this.conn.call("spin", { set: overrides });
      this.base = spin;
      this.status.textContent = "This is now your spin: the story goes on told this way.";
      this.onKept(spin);
      await this.choose({});
    } catch (error) {
      this.error.textContent = sentence(error);
    }
  }
}

/** Blocks rebuilt from their tokens, the tokens the other telling lacks wrapped in `tag` (ins or del). */
function render(list, all, kept, tag) {
  const out = [];
  let index = 0;
  list.forEach((block, number) => {
    if (number) index += 1; // the break between blocks
    const element = h(block.kind === "heading" ? "h4" : "p", {});
    const count = tokens(block.text).length;
    let run = [];
    let spaces = []; // spaces after a word: marked only when the next word is marked too
    let marked = null;
    const flush = () => {
      if (run.length) element.append(marked ? h(tag, {}, run.join("")) : document.createTextNode(run.join("")));
      run = [];
    };
    for (let i = 0; i < count; i += 1, index += 1) {
      const token = all[index];
      if (/^\s+$/.test(token)) {
        spaces.push(token);
        continue;
      }
      const isMarked = !kept[index];
      if (isMarked !== marked) {
        flush();
        element.append(document.createTextNode(spaces.join("")));
        marked = isMarked;
      } else {
        run.push(...spaces);
      }
      spaces = [];
      run.push(token);
    }
    run.push(...(marked ? [] : spaces));
    flush();
    if (marked && spaces.length) element.append(document.createTextNode(spaces.join("")));
    out.push(element);
  });
  return out;
}
