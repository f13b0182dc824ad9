// The browser's JSON-RPC 2.0 client over GET /ws: a promise per call, notifications as events, reconnect + resume.
//
// A call, in order:
// 1. While the socket is down (opening, or reopening after a drop) the call waits in a queue.
// 2. It takes the next id; its answer, matched by id, resolves the promise with the result, or rejects it
//    with an RpcError carrying the server's code and its sentence for people.
// 3. `join` and `resume` keep the session's token, so a socket opened again can be bound to it again, and
//    its instance, which a socket opened again names in its URL (/ws?instance=ID) for a server of several
//    parts (or a proxy) to place it where the instance is held.
//
// Every reply and notification of a session carries a sequence number (`seq`) that only grows; `seq` here
// is the highest seen. When the socket drops, calls sent and still waiting for answers are rejected with
// ConnectionLost (they may or may not have taken effect), while calls not yet sent stay queued; the socket is
// reopened with a doubling back-off, the session resumed by its token and the last number seen before
// anything else is sent, so the server sends again what was missed (its notifications, and as "reply" the
// answers the drop lost), each dispatched once, in order; a notification at or below `seq` was seen already
// and is dropped. When the server no longer holds it all, `resumed.state` says where the session stands, for
// the page to retell the turns missed. Then the calls queued meanwhile go out. Status events say each step.
//
// A server of several parts answers -32008 (NODE_UNREACHABLE) when the part holding the instance cannot be
// reached right now. That is taken as the server being away: a call that never reached that part
// (`data.sent` false) is sent again after the same doubling wait, as a call queued during a drop goes out
// later; a resume answered so when a socket came back closes that socket, and the next one tries again, the
// session kept. A call that reached it and may have been done is rejected, as one lost with a drop is.
//
// An author shows the author token in band (`authenticate`: a browser's WebSocket cannot send an Authorization
// header); the connection keeps it in memory only, and shows it again on each socket it opens, before resuming.

export class RpcError extends Error {
  /** The server's answer was an error: its code, its message (a sentence for people) and its data. */
  constructor(code, message, data) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
}

export class ConnectionLost extends Error {
  /** The socket dropped before the answer came: the call may or may not have taken effect. */
  constructor(method) {
    super(`The connection dropped before the server answered (${method}).`);
    this.name = "ConnectionLost";
  }
}

export const NO_SESSION = -32002;
export const NODE_UNREACHABLE = -32008;

export class Connection extends EventTarget {
  /**
   * url: the WebSocket's address (ws://host/ws). backoff: the first wait and the longest, in milliseconds.
   * Events: "status" (detail: {status: "connecting" | "open" | "reconnecting" | "resumed" | "session-lost" |
   * "closed"}), "notification" (detail: {method, params}), and one event per notification method, too.
   */
  constructor(url, { backoff = [250, 4000] } = {}) {
    super();
    this.url = url;
    this.backoff = backoff;
    this.token = null;
    this.instance = null; // the session's instance, named in the URL of each socket opened
    this.seq = 0; // the highest sequence number seen of the session's replies and notifications
    this.resumed = null; // the answer of the last resume made when a socket came back
    this.authorToken = null; // kept in memory only: a reload forgets it
    this.status = "connecting";
    this.nextId = 1;
    this.pending = new Map(); // id -> {method, resolve, reject}
    this.queue = []; // messages waiting for the socket
    this.socket = null;
    this.closed = false;
    this.wait = backoff[0];
    this.everOpened = false;
  }

  /** Open the socket; resolves once it is open (it keeps trying until then). */
  open() {
    return new Promise((resolve) => {
      const opened = (event) => {
        if (event.detail.status === "open" || event.detail.status === "resumed") {
          this.removeEventListener("status", opened);
          resolve();
        }
      };
      this.addEventListener("status", opened);
      this.connect();
    });
  }

  /** Call `method` with named `params`; a promise of its result. */
  call(method, params = undefined) {
    const id = this.nextId++;
    const message = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        method,
        message,
        resolve: (result) => {
          if ((method === "join" || method === "fork" || method === "resume") && result && result.instance) {
            this.instance = result.instance;
          }
          if ((method === "join" || method === "fork") && result && result.token) {
            this.token = result.token;
            this.seq = 0; // a new session: its numbers start again
          } else if (method === "resume" && result) {
            this.seq = result.seq;
          } else if (result && Number.isInteger(result.seq)) {
            this.seq = Math.max(this.seq, result.seq);
          }
          resolve(result);
        },
        reject,
      });
      this.send(message);
    });
  }

  /** Bind this connection to a session by its token (after a reload, or a link kept). */
  async resume(token) {
    const result = await this.call("resume", { token });
    this.token = token;
    return result;
  }

  /** Act as an author on this connection (and on each socket it opens again) by the server's author token. */
  async authenticate(token) {
    await this.call("authenticate", { token });
    this.authorToken = token;
  }

  /** Forget the session (after `leave`, or when the server no longer knows it). */
  forget() {
    this.token = null;
    this.instance = null;
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close(1000, "page closed");
    this.setStatus("closed");
  }

  // -- inside ------------------------------------------------------------------------------------------

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status } }));
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.ready) {
      this.transmit(this.socket, message);
    } else {
      this.queue.push(message);
    }
  }

  transmit(socket, message) {
    const call = this.pending.get(message.id);
    if (call) call.sent = true;
    socket.send(JSON.stringify(message));
  }

  connect() {
    if (this.closed) return;
    const placed = this.instance ? `?instance=${encodeURIComponent(this.instance)}` : "";
    const socket = new WebSocket(this.url + placed);
    this.socket = socket;
    this.ready = false;
    socket.addEventListener("open", () => this.opened(socket));
    socket.addEventListener("message", (event) => this.received(event.data));
    socket.addEventListener("close", () => this.dropped(socket));
  }

  async opened(socket) {
    const again = this.everOpened;
    this.everOpened = true;
    if (again && this.authorToken) {
      // A new socket is a new connection: it is an author's only once it shows the token again.
      try {
        await this.direct(socket, "authenticate", { token: this.authorToken });
      } catch (error) {
        if (error instanceof ConnectionLost) return;
        this.authorToken = null; // the server's token changed: this page is a player's from now on
      }
    }
    if (again && this.token) {
      // The session is bound to the new socket before anything queued goes out, so those calls act for it.
      let status = "resumed";
      try {
        this.resumed = await this.direct(socket, "resume", { token: this.token, last_seq: this.seq });
      } catch (error) {
        if (error instanceof ConnectionLost) return; // dropped again at once; the next socket tries again
        if (error.code === NODE_UNREACHABLE) {
          // The part of the server holding the session is away: a try that failed, as if no server had
          // answered; this socket goes, and the next (after the doubled wait) resumes the session kept.
          socket.close(1000, "resuming later");
          return;
        }
        status = "session-lost";
        this.sessionError = error;
      }
      this.flush(socket);
      this.setStatus(status);
      return;
    }
    this.flush(socket);
    this.setStatus(again ? "resumed" : "open");
  }

  /** A call sent on `socket` at once, ahead of the queue (used while it is being made ready). */
  direct(socket, method, params) {
    const id = this.nextId++;
    const answer = new Promise((resolve, reject) => this.pending.set(id, { method, resolve, reject, sent: true }));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return answer;
  }

  flush(socket) {
    this.wait = this.backoff[0]; // ready: the next drop starts its waits afresh
    this.ready = true;
    const waiting = this.queue;
    this.queue = [];
    for (const message of waiting) this.transmit(socket, message);
  }

  dropped(socket) {
    if (socket !== this.socket) return;
    this.ready = false;
    // Calls that went out on the lost socket may or may not have been done; those still queued never left.
    for (const [id, call] of this.pending) {
      if (!call.sent) continue;
      call.reject(new ConnectionLost(call.method));
      this.pending.delete(id);
    }
    if (this.closed) return;
    this.setStatus(this.everOpened ? "reconnecting" : "connecting");
    const jitter = 0.8 + Math.random() * 0.4; // many pages dropped at once do not all come back at once
    setTimeout(() => this.connect(), this.wait * jitter);
    this.wait = Math.min(this.wait * 2, this.backoff[1]);
  }

  received(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return; // the server sends JSON only; anything else is not ours to answer
    }
    for (const one of Array.isArray(message) ? message : [message]) this.handle(one);
  }

  handle(message) {
    if (message.method && message.id === undefined) {
      const detail = { method: message.method, params: message.params || {} };
      const seq = detail.params.seq;
      if (Number.isInteger(seq) && seq > 0) {
        if (seq <= this.seq) return; // seen already: sent again by a resume
        this.seq = seq;
      }
      this.dispatchEvent(new CustomEvent("notification", { detail }));
      this.dispatchEvent(new CustomEvent(message.method, { detail: detail.params }));
      return;
    }
    let id = message.id;
    if (id === null || id === undefined) {
      // The server could not read a message: its answers come in order, so it is the oldest unanswered.
      id = [...this.pending].find(([, call]) => call.sent)?.[0];
    }
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    const unreached = message.error && message.error.code === NODE_UNREACHABLE && message.error.data?.sent === false;
    if (unreached && call.message) {
      // It never reached the part of the server holding its instance: sent again after a wait, doubling.
      call.wait = Math.min((call.wait || this.backoff[0] / 2) * 2, this.backoff[1]);
      call.sent = false;
      setTimeout(() => {
        if (this.closed) return;
        this.pending.set(id, call);
        this.send(call.message);
      }, call.wait);
      return;
    }
    if (message.error) {
      call.reject(new RpcError(message.error.code, message.error.message, message.error.data));
    } else {
      call.resolve(message.result);
    }
  }
}

/** The WebSocket address of the server this page came from. */
export function socketUrl(location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}
