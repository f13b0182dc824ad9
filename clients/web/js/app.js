// The browser client: the lobby, joining by link, play, and the spin explorer, concept and author views.
//
// The page's address says where it is: "/" is the lobby; "/?instance=ID" is that story (resumed with the
// token this browser keeps for it, or joined); a fragment after "#" is a spin tried in the explorer
// ("#time=after&narrator=%40guard"), so a telling can be shared as a link.

import { Connection, ConnectionLost, NO_SESSION, socketUrl } from "./rpc.js";
import { h, fill, sentence, uid } from "./dom.js";
import { History } from "./history.js";
import { completions, sharedStart } from "./complete.js";
import { SpinExplorer } from "./spin.js";
import { treeView, tagsOf } from "./tree.js";
import { Transcript, download } from "./transcript.js";

const conn = new Connection(socketUrl(location));
const main = document.getElementById("main");
const connection = document.getElementById("connection");
let current = null; // the view shown: a Play, or null
let cache = {}; // worlds, spins and the Spin schema: asked once

// -- what the browser keeps ------------------------------------------------------------------------------

const kept = {
  get(key, otherwise) {
    try {
      const value = JSON.parse(localStorage.getItem(`curveship.${key}`));
      return value ?? otherwise;
    } catch {
      return otherwise;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(`curveship.${key}`, JSON.stringify(value));
    } catch {
      // storage refused (private window, full): the page still works, it only forgets
    }
  },
  session(instance) {
    return this.get("sessions", {})[instance] || null;
  },
  keepSession(instance, session) {
    this.set("sessions", { ...this.get("sessions", {}), [instance]: session });
  },
  forgetSession(instance) {
    const sessions = this.get("sessions", {});
    delete sessions[instance];
    this.set("sessions", sessions);
  },
};

// -- the page's frame --------------------------------------------------------------------------------------

function textSize() {
  const apply = (size) => {
    document.documentElement.style.fontSize = `${size}%`;
    kept.set("textsize", size);
  };
  let size = kept.get("textsize", 100);
  apply(size);
  document.getElementById("smaller").addEventListener("click", () => apply((size = Math.max(70, size - 10))));
  document.getElementById("larger").addEventListener("click", () => apply((size = Math.min(250, size + 10))));
}

let calm = null;
function showStatus(status) {
  clearTimeout(calm);
  const words = {
    connecting: "Connecting…",
    reconnecting: "Reconnecting…",
    resumed: "Reconnected.",
    "session-lost": "Reconnected, but the server no longer knows this session.",
    closed: "Disconnected.",
    open: "",
  };
  connection.textContent = words[status] ?? "";
  connection.dataset.status = status;
  if (status === "resumed") calm = setTimeout(() => (connection.textContent = ""), 4000);
}

async function known() {
  if (!cache.worlds) {
    const [worlds, spins, discovery] = await Promise.all([
      conn.call("worlds"),
      conn.call("spins"),
      conn.call("rpc.discover").catch(() => null),
    ]);
    cache = {
      worlds: new Map(worlds.worlds.map((world) => [world.name, world])),
      spins: spins.spins,
      schema: discovery?.components?.schemas?.Spin || null,
    };
  }
  return cache;
}

function go(address) {
  history.pushState(null, "", address);
  route();
}

let routed = null; // the address (without its fragment) the page shows

async function route() {
  routed = location.pathname + location.search;
  if (current) current.close();
  current = null;
  const instance = new URLSearchParams(location.search).get("instance");
  try {
    if (instance) await openInstance(instance);
    else await lobby();
  } catch (error) {
    fill(main, h("h1", {}, "Curveship"), h("p", { class: "error", role: "alert" }, sentence(error)));
  }
}

// -- the lobby ------------------------------------------------------------------------------------------------

function nameField() {
  const id = uid("name");
  const input = h("input", {
    id,
    type: "text",
    autocomplete: "nickname",
    maxlength: 64,
    value: kept.get("name", ""),
    oninput: () => kept.set("name", input.value.trim()),
  });
  return { input, element: h("p", { class: "field" }, h("label", { for: id }, "Your name"), input) };
}

function playerName(input) {
  return input.value.trim() || undefined;
}

/**
 * For authors: the server's author token, shown to it over the socket (a page cannot send it as a header).
 * Once shown, the stories this page starts or joins are an author's, with the author view.
 */
function authorField() {
  const id = uid("author-token");
  const input = h("input", { id, type: "password", autocomplete: "off", spellcheck: "false", maxlength: 128 });
  const said = h("p", { class: "hint", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const acting = "This page acts as an author: the stories you start or join from it have the author view.";
  if (conn.authorToken) said.textContent = acting;
  const form = h(
    "form",
    { class: "author-token" },
    h("p", { class: "field" }, h("label", { for: id }, "Author token"), input),
    h("button", { type: "submit", class: "secondary" }, "Act as author"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    said.textContent = "";
    try {
      await conn.authenticate(input.value.trim());
      input.value = "";
      said.textContent = acting;
    } catch (failure) {
      error.textContent = sentence(failure);
    }
  });
  return h(
    "details",
    { class: "authoring", open: Boolean(conn.authorToken) },
    h("summary", {}, "For authors"),
    h(
      "p",
      {},
      "The author token ",
      h("code", {}, "curveship serve"),
      " printed at its start (or ",
      h("code", {}, "$CURVESHIP_AUTHOR_TOKEN"),
      ") lets this page act as an author.",
    ),
    form,
    said,
    error,
  );
}

async function lobby() {
  document.title = "Curveship";
  const { worlds } = await known();
  const name = nameField();
  const error = h("p", { class: "error", role: "alert" });
  const running = h("div", { class: "instances" });
  const refresh = h("button", { type: "button", class: "secondary", onclick: () => listInstances() }, "Refresh");

  async function start(world, actor) {
    error.textContent = "";
    try {
      const { instance } = await conn.call("create", { world: world.name });
      const joined = await conn.call("join", { instance, actor, name: playerName(name.input) });
      kept.keepSession(instance, { token: joined.token, actor: joined.actor });
      history.pushState(null, "", `/?instance=${encodeURIComponent(instance)}`);
      routed = location.pathname + location.search;
      current = new Play(instance, { token: joined.token, actor: joined.actor }, worlds);
      await current.start(joined);
    } catch (failure) {
      error.textContent = sentence(failure);
    }
  }

  async function listInstances() {
    try {
      const { instances } = await conn.call("instances");
      if (!instances.length) {
        fill(running, h("p", {}, "None yet: start one above."));
        return;
      }
      fill(
        running,
        h(
          "ul",
          { class: "instance-list" },
          instances.map((one) => {
            const world = worlds.get(one.world);
            const title = world ? world.title : one.world;
            const players = one.players.map((player) => `${player.name} (${actorName(world, player.actor)})`);
            const mine = kept.session(one.instance);
            return h(
              "li",
              {},
              h(
                "a",
                { href: `/?instance=${encodeURIComponent(one.instance)}`, "data-instance": one.instance },
                mine ? `Continue ${title}` : `Join ${title}`,
              ),
              h(
                "span",
                { class: "meta" },
                ` — ${one.instance}, turn ${one.turn}`,
                one.ended ? ", ended" : "",
                players.length ? `; playing: ${players.join(", ")}` : "; nobody playing",
              ),
            );
          }),
        ),
      );
    } catch (failure) {
      fill(running, h("p", { class: "error" }, sentence(failure)));
    }
  }

  running.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-instance]");
    if (!link) return;
    event.preventDefault();
    go(link.getAttribute("href"));
  });

  const cards = [...worlds.values()].map((world) => {
    const pick = world.actors.length > 1 ? h("select", { id: uid("actor") }) : null;
    if (pick) for (const actor of world.actors) pick.append(h("option", { value: actor.tag }, actor.name));
    const verb = world.interactive ? "Start" : "Read";
    return h(
      "li",
      { class: "world" },
      h("h3", {}, world.title),
      h("p", {}, world.summary),
      h(
        "p",
        { class: "start" },
        pick ? [h("label", { for: pick.id }, `Play ${world.title} as`), pick] : null,
        h(
          "button",
          {
            type: "button",
            "aria-label": `${verb} ${world.title}`,
            onclick: () => start(world, pick ? pick.value : undefined),
          },
          verb,
        ),
      ),
    );
  });

  fill(
    main,
    h("h1", {}, "Curveship"),
    h(
      "p",
      { class: "lede" },
      "Interactive fiction whose stories can be told many ways: play one, then re-tell it in the past, ",
      "backwards, through someone else's eyes.",
    ),
    name.element,
    authorField(),
    error,
    h("section", { "aria-labelledby": "worlds-heading" }, h("h2", { id: "worlds-heading" }, "Worlds"), h("ul", { class: "worlds" }, cards)),
    h(
      "section",
      { "aria-labelledby": "running-heading" },
      h("h2", { id: "running-heading" }, "Stories under way"),
      refresh,
      running,
    ),
  );
  await listInstances();
}

function actorName(world, tag) {
  const actor = world?.actors.find((one) => one.tag === tag);
  return actor ? actor.name : tag;
}

// -- joining by link ----------------------------------------------------------------------------------------

async function openInstance(instance) {
  const { worlds } = await known();
  const session = kept.session(instance);
  if (session) {
    try {
      await conn.resume(session.token);
      current = new Play(instance, session, worlds);
      await current.start(null);
      return;
    } catch (error) {
      if (error.code !== NO_SESSION && error.code !== -32004) throw error;
      kept.forgetSession(instance);
      conn.forget();
      return joinForm(instance, worlds, sentence(error));
    }
  }
  return joinForm(instance, worlds, "");
}

async function joinForm(instance, worlds, why) {
  const { instances } = await conn.call("instances");
  const found = instances.find((one) => one.instance === instance);
  if (!found) {
    fill(
      main,
      h("h1", {}, "No such story"),
      h("p", { class: "error", role: "alert" }, why || `This server has no story ${instance}.`),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby")),
    );
    return;
  }
  const world = worlds.get(found.world);
  document.title = `Join ${world.title} — Curveship`;
  const taken = new Set(found.players.map((player) => player.actor));
  const free = world.actors.filter((actor) => !taken.has(actor.tag));
  const name = nameField();
  const error = h("p", { class: "error", role: "alert" }, why);
  const pickId = uid("actor");
  const pick = h("select", { id: pickId }, free.map((actor) => h("option", { value: actor.tag }, actor.name)));
  const form = h(
    "form",
    { class: "join" },
    name.element,
    free.length
      ? h("p", { class: "field" }, h("label", { for: pickId }, "Play as"), pick)
      : h("p", {}, "Every part is taken; you can watch as one of them only if the story is not interactive."),
    h("button", { type: "submit" }, "Join"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const joined = await conn.call("join", {
        instance,
        actor: free.length ? pick.value : undefined,
        name: playerName(name.input),
      });
      kept.keepSession(instance, { token: joined.token, actor: joined.actor });
      current = new Play(instance, { token: joined.token, actor: joined.actor }, worlds);
      await current.start(joined);
    } catch (failure) {
      error.textContent = sentence(failure);
    }
  });
  const players = found.players.map((player) => `${player.name} (${actorName(world, player.actor)})`);
  fill(
    main,
    h("h1", {}, `Join ${world.title}`),
    h("p", {}, world.summary),
    h("p", { class: "meta" }, `Turn ${found.turn}. `, players.length ? `Playing: ${players.join(", ")}.` : "Nobody is playing."),
    error,
    form,
    authorField(),
    h("p", {}, h("a", { href: "/" }, "Back to the lobby")),
  );
}

// -- playing ----------------------------------------------------------------------------------------------------

class Play {
  constructor(instance, session, worlds) {
    this.instance = instance;
    this.session = session;
    this.worlds = worlds;
    this.turn = 0;
    this.ended = false;
    this.panels = {};
    this.listeners = [];
  }

  on(name, handler) {
    conn.addEventListener(name, handler);
    this.listeners.push([name, handler]);
  }

  close() {
    for (const [name, handler] of this.listeners) conn.removeEventListener(name, handler);
    window.removeEventListener("hashchange", this.followed);
  }

  /** A spin link was followed on this page (only the fragment changed): try that spin in the explorer. */
  followed = async () => {
    const wanted = location.hash.slice(1);
    if (!wanted) return;
    const panel = this.panels.explorer;
    if (!panel.view) return this.toggle("explorer", true); // a new explorer reads the address itself
    await this.toggle("explorer", true);
    await panel.view.choose(panel.view.readAddress(wanted));
  };

  /** Draw the story: `joined` is join's answer (the opening), or null to re-tell the story so far (a resume). */
  async start(joined) {
    const state = await conn.call("state");
    this.state = state;
    this.world = this.worlds.get(state.world);
    this.turn = state.turn;
    this.ended = state.ended;
    this.interactive = state.interactive ?? this.world.interactive;
    this.author = state.author ?? (await conn.call("world").then(() => true, () => false));
    const own = await conn.call("concept", {});
    this.actors = this.actorsFrom(own.tree);
    this.focalizers = state.focalizers ?? (this.author || !this.interactive ? [...this.actors.keys()] : [state.actor]);
    this.concepts = state.concepts ?? (this.author || !this.interactive ? [...this.actors.keys()] : [state.actor]);
    this.draw();
    if (joined) {
      this.transcript.add({ kind: "opening", turn: joined.turn, actor: joined.actor, command: "", text: joined.text, blocks: joined.blocks });
    } else {
      const told = await conn.call("narrate", {});
      this.transcript.add({
        kind: "retold",
        note: "The story so far:",
        turn: told.turn,
        actor: state.actor,
        command: "",
        text: told.text,
        blocks: told.blocks,
      });
    }
    if (this.ended) this.transcript.notice("The story has ended.", "ended");
    this.on("narration", (event) => this.news(event.detail));
    this.on("reply", (event) => this.lostReply(event.detail));
    this.on("presence", (event) => this.presence(event.detail));
    this.on("ended", (event) => event.detail.instance === this.instance && this.storyEnded());
    this.on("status", (event) => this.linkChanged(event.detail.status));
    window.addEventListener("hashchange", this.followed);
    const spin = location.hash.slice(1);
    if (spin || !this.interactive) await this.toggle("explorer", true);
    await this.learn();
    if (this.input) this.input.focus();
  }

  actorsFrom(tree) {
    const actors = new Map(this.world.actors.map((actor) => [actor.tag, actor.name]));
    for (const node of tagsOf(tree).values()) if (node.kind === "actor" && !actors.has(node.tag)) actors.set(node.tag, node.name);
    for (const tag of this.state.focalizers || []) if (!actors.has(tag)) actors.set(tag, tag);
    for (const tag of this.state.concepts || []) if (!actors.has(tag)) actors.set(tag, tag);
    return actors;
  }

  draw() {
    document.title = `${this.world.title} — Curveship`;
    this.log = h("div", { id: "transcript", class: "transcript", role: "log", "aria-live": "polite", "aria-label": "Transcript" });
    this.transcript = new Transcript(this.log);
    this.where = h("p", { class: "where" });
    this.error = h("p", { class: "error", role: "alert" });
    const invite = `${location.origin}/?instance=${encodeURIComponent(this.instance)}`;
    const tools = h(
      "div",
      { class: "tools", role: "group", "aria-label": "Tools" },
      this.toolButton("explorer", "Spin explorer"),
      this.toolButton("concepts", "Concepts"),
      this.author ? this.toolButton("author", "Author") : null,
      h("button", { type: "button", class: "secondary", onclick: () => this.download("text") }, "Download text"),
      h("button", { type: "button", class: "secondary", onclick: () => this.download("json") }, "Download JSON"),
      h("button", { type: "button", class: "secondary", onclick: () => this.leave() }, "Leave"),
    );
    const story = h("section", { class: "story", "aria-label": "Story" }, this.log);
    if (this.interactive) story.append(this.commandLine());
    else story.append(h("p", { class: "reader" }, "This story tells itself: read it, then re-tell it in the spin explorer below."));
    fill(
      main,
      h("nav", { class: "crumbs", "aria-label": "Where you are" }, h("a", { href: "/", onclick: (event) => this.toLobby(event) }, "Lobby")),
      h("h1", {}, this.world.title),
      this.where,
      h("p", { class: "invite" }, "A friend can join with this link: ", h("a", { href: invite, class: "join-link" }, invite)),
      tools,
      this.error,
      story,
      this.panel("explorer", "Spin explorer"),
      this.panel("concepts", "Concepts"),
      this.author ? this.panel("author", "Author") : null,
    );
    this.showWhere();
  }

  toLobby(event) {
    event.preventDefault();
    go("/");
  }

  showWhere() {
    const state = this.state;
    const name = this.actors.get(state.actor) || state.actor;
    const parts = [`You are the ${name} (${state.actor})`, `turn ${this.turn}`];
    if (state.room_name) parts.push(state.room_name);
    if (this.author) parts.push("author");
    fill(this.where, `${parts.join(" · ")}.`);
  }

  toolButton(name, text) {
    return h(
      "button",
      { type: "button", "aria-expanded": "false", "aria-controls": `${name}-panel`, "data-panel": name, onclick: () => this.toggle(name) },
      text,
    );
  }

  panel(name, title) {
    const headingId = `${name}-heading`;
    const body = h("div", { class: "panel-body" });
    const element = h("section", { id: `${name}-panel`, class: "panel", "aria-labelledby": headingId, hidden: true }, h("h2", { id: headingId }, title), body);
    this.panels[name] = { element, body, open: false, view: null };
    return element;
  }

  async toggle(name, open = undefined) {
    const panel = this.panels[name];
    if (!panel) return;
    panel.open = open ?? !panel.open;
    panel.element.hidden = !panel.open;
    const button = main.querySelector(`[data-panel="${name}"]`);
    if (button) button.setAttribute("aria-expanded", String(panel.open));
    if (!panel.open) return;
    try {
      if (!panel.view) panel.view = await this.makeView(name, panel.body);
      else await panel.view.refresh();
    } catch (error) {
      fill(panel.body, h("p", { class: "error", role: "alert" }, sentence(error)));
      panel.view = null;
    }
  }

  async makeView(name, body) {
    if (name === "explorer") {
      const { spins, schema } = await known();
      const explorer = new SpinExplorer({
        conn,
        session: { actor: this.state.actor, interactive: this.interactive, author: this.author, focalizers: this.focalizers, actors: this.actors },
        schema,
        named: spins,
        onChange: (address) => history.replaceState(null, "", `${location.pathname}${location.search}${address ? `#${address}` : ""}`),
      });
      fill(body, explorer.element);
      const wanted = location.hash.slice(1);
      await explorer.start({});
      if (wanted) await explorer.choose(explorer.readAddress(wanted));
      return explorer;
    }
    if (name === "concepts") {
      const view = new ConceptView(this, body);
      await view.refresh();
      return view;
    }
    const view = new AuthorView(this, body);
    await view.refresh();
    return view;
  }

  commandLine() {
    const history = new History();
    const input = h("input", { id: "command", type: "text", autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "send" });
    this.input = input;
    input.addEventListener("keydown", (event) => {
      if (event.key === "ArrowUp" || event.key === "ArrowDown") {
        const line = event.key === "ArrowUp" ? history.older(input.value) : history.newer();
        if (line !== null) {
          input.value = line;
          input.setSelectionRange(line.length, line.length);
        }
        event.preventDefault();
      }
    });
    this.hint = h("p", { class: "hint completions", id: "completions" });
    input.setAttribute("aria-describedby", "completions");
    input.addEventListener("input", () => this.suggest());
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Tab" || event.shiftKey) return;
      if (this.complete()) {
        event.preventDefault();
      } else if (this.actions === null && /\S$/.test(input.value)) {
        // Nothing fits from the story's words: what would succeed now may, asked for this once.
        event.preventDefault();
        this.askActions().then(() => this.complete());
      }
    });
    const form = h(
      "form",
      { class: "command-line" },
      h("label", { for: "command" }, "Command"),
      input,
      h("button", { type: "submit" }, "Send"),
      this.hint,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      history.add(text);
      input.value = "";
      this.command(text);
    });
    return form;
  }

  /** The words the story knows, asked again after each turn. The commands that would succeed now are let go
   * with it, and asked for only when Tab needs them (`askActions`): working them out tries every command
   * (0.2-0.4 s of engine in Lost One), which is charged to the player's allowance as the work it is, so asked
   * after every turn they spent a brisk player's allowance and the player's own commands were refused. */
  async learn() {
    if (!this.interactive) return;
    this.actions = null;
    this.vocabulary = await conn.call("vocabulary").catch(() => null);
    this.suggest();
  }

  /** The commands that would succeed now, for Tab to complete whole commands from (until the next turn). */
  async askActions() {
    const turn = this.turn;
    const found = await conn.call("actions").catch(() => ({ commands: [] }));
    if (this.turn === turn) this.actions = found.commands;
    this.suggest();
  }

  /** What Tab would complete the word being typed to, shown under the command line. */
  suggest() {
    const value = this.input.value;
    const word = value.match(/\S*$/)[0];
    const found = word ? completions(value, this.vocabulary, this.actions || []) : [];
    this.hint.textContent = found.length ? `Tab completes: ${found.slice(0, 8).join(" · ")}${found.length > 8 ? " …" : ""}` : "";
    return found;
  }

  /** Tab: complete the word being typed as far as every fit agrees (and a space after a sole fit). */
  complete() {
    const value = this.input.value;
    if (this.input.selectionStart !== value.length) return false;
    const word = value.match(/\S*$/)[0];
    const found = word ? completions(value, this.vocabulary, this.actions || []) : [];
    if (!found.length) return false;
    const start = sharedStart(found);
    const ending = found.length === 1 ? `${found[0]} ` : start;
    // Nothing more agreed: Tab moves on as it always does (the hint shows the fits), so it never traps anyone.
    if (ending.length <= word.length) return false;
    this.input.value = value.slice(0, value.length - word.length) + ending;
    this.suggest();
    return true;
  }

  async command(text) {
    const entry = this.transcript.echo(text);
    try {
      const reply = await conn.call("command", { text });
      this.transcript.answered(entry, { kind: "reply", turn: reply.turn, actor: this.state.actor, command: text, text: reply.text, blocks: reply.blocks });
      await this.turned(reply.turn, reply.ended);
    } catch (error) {
      entry.classList.remove("pending");
      if (error instanceof ConnectionLost) {
        const notice = h("p", { class: "notice" }, "The connection dropped before the answer came; what happened is told when it is back.");
        entry.append(notice);
        this.unanswered = { entry, notice, command: text };
      } else {
        entry.append(h("p", { class: "error" }, sentence(error)));
      }
    }
  }

  /** The story moved on (to `turn`): the header, and the open views, follow it. */
  async turned(turn, ended) {
    this.turn = Math.max(this.turn, turn);
    if (ended) this.storyEnded();
    try {
      this.state = await conn.call("state");
    } catch {
      return; // the next turn asks again
    }
    this.showWhere();
    this.learn().catch(() => {});
    for (const panel of Object.values(this.panels)) if (panel.open && panel.view) panel.view.refresh().catch(() => {});
  }

  news(note) {
    if (note.instance !== this.instance) return;
    this.transcript.add({ kind: "news", turn: note.turn, actor: this.state.actor, command: "", text: note.text, blocks: note.blocks });
    this.turned(note.turn, false);
  }

  /** The answer the dropped connection lost, sent again by the server on resume: where the command was typed. */
  lostReply(note) {
    const waiting = this.unanswered;
    const page = { kind: "reply", turn: note.turn, actor: this.state.actor, command: waiting ? waiting.command : "", text: note.text, blocks: note.blocks };
    if (waiting) {
      waiting.notice.remove();
      this.transcript.answered(waiting.entry, page);
      this.unanswered = null;
    } else {
      this.transcript.add({ ...page, note: "The answer the dropped connection lost:" });
    }
    this.turned(note.turn, note.ended);
  }

  presence(note) {
    if (note.instance !== this.instance) return;
    const who = `${note.name} (${this.actors.get(note.actor) || note.actor})`;
    this.transcript.notice(note.event === "joined" ? `${who} joined the story.` : `${who} left the story.`, "presence");
  }

  storyEnded() {
    if (this.ended) return;
    this.ended = true;
    this.transcript.notice("The story has ended.", "ended");
  }

  /** The socket came back: tell what happened while it was down (nothing is lost), or say the session is gone. */
  async linkChanged(status) {
    if (status === "session-lost") {
      kept.forgetSession(this.instance);
      this.transcript.notice(`${sentence(conn.sessionError)} Join the story again from its link.`, "error");
      return;
    }
    if (status !== "resumed") return;
    try {
      // What was missed came again already, as notifications before the resume's answer, unless the server
      // no longer held it all: then its answer has the state, and the turns since the last one seen are retold.
      const fresh = conn.resumed && conn.resumed.state;
      const state = fresh || (await conn.call("state"));
      const missed = fresh ? state.turn - this.turn : 0;
      if (missed > 0) {
        const told = await conn.call("narrate", { window: missed });
        this.transcript.add({
          kind: "news",
          note: this.unanswered ? "While the connection was down:" : "Meanwhile:",
          turn: told.turn,
          actor: state.actor,
          command: "",
          text: told.text,
          blocks: told.blocks,
        });
      }
      this.unanswered = null;
      this.state = state;
      await this.turned(state.turn, state.ended);
    } catch (error) {
      this.transcript.notice(sentence(error), "error");
    }
  }

  async leave() {
    try {
      await conn.call("leave");
    } catch (error) {
      this.error.textContent = sentence(error);
      return;
    }
    kept.forgetSession(this.instance);
    conn.forget();
    go("/");
  }

  download(format) {
    const about = { instance: this.instance, world: this.state.world, title: this.world.title, turn: this.turn, ended: this.ended };
    const base = `curveship-${this.state.world}-${this.instance}`;
    if (format === "json") download(`${base}.json`, "application/json", this.transcript.asJson(about));
    else download(`${base}.txt`, "text/plain", this.transcript.asText(about));
  }
}

// -- what each actor knows ----------------------------------------------------------------------------------

class ConceptView {
  constructor(play, body) {
    this.play = play;
    this.body = body;
    const choices = play.concepts;
    this.left = this.picker("Actor", choices, play.state.actor);
    const other = choices.find((tag) => tag !== play.state.actor) || "";
    this.right = choices.length > 1 ? this.picker("Compared with", ["", ...choices], other) : null;
    this.columns = h("div", { class: "side-by-side concepts" });
    fill(
      body,
      h(
        "p",
        { class: "lede" },
        choices.length > 1
          ? "Each actor's concept of the world: what it believes is where. What one knows and the other does not is marked."
          : "Your actor's concept of the world: what it believes is where. In an interactive world you read only your own.",
      ),
      h("div", { class: "concept-pickers" }, this.left.element, this.right ? this.right.element : null),
      this.columns,
    );
  }

  picker(label, tags, chosen) {
    const id = uid("concept");
    const select = h(
      "select",
      { id, onchange: () => this.refresh() },
      tags.map((tag) => h("option", { value: tag, selected: tag === chosen }, tag ? `${this.play.actors.get(tag) || tag} (${tag})` : "nobody")),
    );
    return { select, element: h("p", { class: "field" }, h("label", { for: id }, label), select) };
  }

  async refresh() {
    const asked = (this.asked = (this.asked || 0) + 1);
    const tags = [this.left.select.value, this.right ? this.right.select.value : ""].filter(Boolean);
    const concepts = await Promise.all(tags.map((actor) => conn.call("concept", { actor })));
    if (asked !== this.asked) return; // the pickers changed meanwhile: a newer answer is coming
    const trees = concepts.map((one) => tagsOf(one.tree));
    const name = (tag) => this.play.actors.get(tag) || tag;
    fill(
      this.columns,
      concepts.map((one, index) => {
        const other = concepts.length > 1 ? trees[1 - index] : null;
        const headingId = uid("h");
        const title = `What the ${name(one.actor)} knows`;
        const mark = (node) => (other && !other.has(node.tag) ? `only the ${name(one.actor)} knows` : null);
        return h(
          "section",
          { "aria-labelledby": headingId, "data-actor": one.actor },
          h("h3", { id: headingId }, title),
          treeView(one.tree, { label: title, mark }),
        );
      }),
    );
  }
}

// -- for authors -------------------------------------------------------------------------------------------------

class AuthorView {
  constructor(play, body) {
    this.play = play;
    this.world = h("div", { class: "world-tree" });
    const id = uid("template");
    this.template = h("textarea", { id, rows: 3, spellcheck: "false" }, "[@" + play.state.actor.slice(1) + "/s] [look/v] around.");
    this.output = h("output", { for: id, class: "realized", "aria-live": "polite" });
    this.error = h("p", { class: "error", role: "alert" });
    let waiting = null;
    this.template.addEventListener("input", () => {
      clearTimeout(waiting);
      waiting = setTimeout(() => this.realize(), 120); // one request per pause in typing, not per key
    });
    fill(
      body,
      h("h3", {}, "The true world"),
      this.world,
      h("h3", {}, "Template playground"),
      h("p", { class: "lede" }, "A string with slots, rendered in this world under your spin as you type: [@actor/s] [verb/v] [@thing/o]."),
      h("p", { class: "field" }, h("label", { for: id }, "Template"), this.template),
      h("p", {}, "Renders as: ", this.output),
      this.error,
    );
  }

  async refresh() {
    const world = await conn.call("world");
    fill(this.world, treeView(world.tree, { label: "The true world" }));
    await this.realize();
  }

  async realize() {
    this.error.textContent = "";
    try {
      const { text } = await conn.call("realize", { template: this.template.value });
      this.output.textContent = text;
    } catch (error) {
      this.output.textContent = "";
      this.error.textContent = sentence(error);
    }
  }
}

// -- starting ------------------------------------------------------------------------------------------------------

async function begin() {
  textSize();
  conn.addEventListener("status", (event) => showStatus(event.detail.status));
  window.addEventListener("popstate", () => {
    // A change of the fragment alone (a spin link followed) is the explorer's, not a new page.
    if (location.pathname + location.search !== routed) route();
  });
  document.getElementById("home").addEventListener("click", (event) => {
    event.preventDefault();
    go("/");
  });
  await conn.open();
  await route();
}

begin();
