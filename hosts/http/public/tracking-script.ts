import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { BROWSER_COMMANDS, TRACKING_GLOBAL } from "../../../core/web-tracking/install-snippet.js";
import { MAX_WEB_EVENTS_PER_BATCH } from "../../../core/web-tracking/commands.js";

/**
 * The browser tracking script served at `/tracking/v1.js` (plain ES2017, no dependencies). It
 * takes over the snippet's command queue, keeps events in the visitor's browser until
 * `identify(email, identityToken)` names who they belong to, then sends them in batches (fetch
 * with keepalive; sendBeacon when the page goes away) and retries with backoff. Each event has
 * an ID of its own, so a batch delivered twice is recorded once. State survives navigation in
 * localStorage. `reset()` forgets the visitor: a new anonymous visitor begins. Nothing it does may
 * throw into the page: every command and callback is guarded.
 */
const SOURCE = String.raw`(function (w, d, NAME, COMMANDS, BATCH) {
  "use strict";
  try {
    var stub = w[NAME];
    if (stub && stub.loaded) return;
    var el = d.currentScript;
    if (!el) {
      var tags = d.querySelectorAll("script[data-public-key]");
      el = tags[tags.length - 1];
    }
    if (!el) return;
    var publicKey = el.getAttribute("data-public-key");
    var companyId = el.getAttribute("data-company-id");
    var origin = (el.getAttribute("data-endpoint-origin") || "").replace(/\/+$/, "");
    if (!publicKey || !companyId || !origin) return;
    var endpoint = origin + "/api/webhooks/commerce/api/" + encodeURIComponent(companyId) + "/customer-events?publicKey=" + encodeURIComponent(publicKey);
    var PREFIX = "lifecycle:" + publicKey + ":";
    var MAX_EVENTS = 100, MAX_ATTEMPTS = 8;

    var load = function (name) {
      try {
        var value = w.localStorage.getItem(PREFIX + name);
        return value ? JSON.parse(value) : null;
      } catch (e) {
        return null;
      }
    };
    var save = function (name, value) {
      try {
        if (value === null) w.localStorage.removeItem(PREFIX + name);
        else w.localStorage.setItem(PREFIX + name, JSON.stringify(value));
      } catch (e) {}
    };
    var newId = function () {
      try {
        if (w.crypto && w.crypto.randomUUID) return w.crypto.randomUUID();
      } catch (e) {}
      return Date.now().toString(36) + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
    };
    var isObject = function (value) {
      return value !== null && typeof value === "object" && !Array.isArray(value);
    };
    var copy = function (value) {
      var out = {};
      if (isObject(value)) for (var k in value) if (Object.prototype.hasOwnProperty.call(value, k)) out[k] = value[k];
      return out;
    };

    var visitor = load("visitor");
    if (typeof visitor !== "string") save("visitor", (visitor = newId()));
    // identity: {email, token}; buffer: events waiting for identify; outbox: batches bound to an identity.
    var identity = isObject(load("identity")) ? load("identity") : null;
    var buffer = Array.isArray(load("buffer")) ? load("buffer") : [];
    var outbox = Array.isArray(load("outbox")) ? load("outbox") : [];
    var inflight = null, timer = null, notBefore = 0;

    var persist = function () {
      save("buffer", buffer);
      save("outbox", outbox);
    };
    var trim = function (list) {
      return list.length > MAX_EVENTS ? list.slice(list.length - MAX_EVENTS) : list;
    };
    var bind = function (who, events) {
      var last = outbox[outbox.length - 1];
      if (last && last !== inflight && last.identity.token === who.token && last.anonymousId === visitor && last.events.length + events.length <= BATCH) {
        last.events = last.events.concat(events);
      } else {
        outbox.push({ identity: who, anonymousId: visitor, events: events, attempts: 0 });
      }
      while (outbox.length > MAX_EVENTS / 10) outbox.shift();
    };
    var schedule = function (ms) {
      if (timer || !outbox.length) return;
      timer = setTimeout(function () {
        timer = null;
        flush();
      }, Math.max(ms, notBefore - Date.now()));
    };
    var payload = function (batch) {
      return JSON.stringify({ publicKey: publicKey, anonymousId: batch.anonymousId, identity: batch.identity, events: batch.events });
    };
    var settle = function (batch, status) {
      inflight = null;
      var done = true;
      if (status === 401) {
        // The token expired or its key was turned off: the visitor's events wait for the next identify.
        if (identity && identity.token === batch.identity.token) {
          identity = null;
          save("identity", null);
          buffer = trim(batch.events.concat(buffer));
        }
      } else if (status === 0 || status === 429 || status >= 500) {
        batch.attempts += 1;
        done = batch.attempts >= MAX_ATTEMPTS;
        if (!done) notBefore = Date.now() + Math.min(60000, 1000 * Math.pow(2, batch.attempts)) * (0.5 + Math.random());
      }
      if (done) outbox = outbox.filter(function (b) { return b !== batch; });
      persist();
      schedule(0);
    };
    var flush = function () {
      if (inflight || !outbox.length) return;
      var batch = (inflight = outbox[0]);
      try {
        w.fetch(endpoint, { method: "POST", body: payload(batch), headers: { "Content-Type": "text/plain" }, keepalive: true, credentials: "omit" }).then(
          function (response) { settle(batch, response.status); },
          function () { settle(batch, 0); },
        );
      } catch (e) {
        settle(batch, 0);
      }
    };
    var beacon = function () {
      if (!w.navigator.sendBeacon) return;
      outbox = outbox.filter(function (batch) {
        try {
          return batch === inflight || !w.navigator.sendBeacon(endpoint, new Blob([payload(batch)], { type: "text/plain" }));
        } catch (e) {
          return true;
        }
      });
      persist();
    };
    var record = function (type, name, properties) {
      var event = { id: newId(), type: type, properties: copy(properties), occurredAt: new Date().toISOString() };
      if (name) event.name = name;
      JSON.stringify(event); // an event that cannot be sent is refused here, not in a batch
      if (identity) bind(identity, [event]);
      else buffer = trim(buffer.concat([event]));
      persist();
      schedule(200);
    };

    var api = {
      identify: function (email, token) {
        if (typeof email !== "string" || typeof token !== "string" || !email || !token) return;
        identity = { email: email.trim().toLowerCase(), token: token };
        save("identity", identity);
        for (var i = 0; i < buffer.length; i += BATCH) bind(identity, buffer.slice(i, i + BATCH));
        buffer = [];
        persist();
        schedule(0);
      },
      track: function (name, properties) {
        if (typeof name === "string" && name) record("track", name, properties);
      },
      page: function (properties) {
        var p = copy(properties);
        if (!("url" in p)) p.url = w.location.href;
        if (!("path" in p)) p.path = w.location.pathname;
        if (!("title" in p)) p.title = d.title;
        if (!("referrer" in p) && d.referrer) p.referrer = d.referrer;
        record("page", null, p);
      },
      searched: function (query, properties) {
        var p = isObject(query) ? copy(query) : copy(properties);
        if (typeof query === "string") p.query = query;
        record("searched", null, p);
      },
      reset: function () {
        identity = null;
        save("identity", null);
        buffer = [];
        save("visitor", (visitor = newId()));
        persist();
      },
    };
    ["viewedProduct", "addedToCart", "removedFromCart", "viewedCart", "viewedCollection"].forEach(function (command) {
      api[command] = function (properties) {
        record(command, null, properties);
      };
    });

    var target = stub && typeof stub === "object" ? stub : {};
    var queued = Array.isArray(target.q) ? target.q : [];
    COMMANDS.forEach(function (command) {
      var run = api[command];
      target[command] = function () {
        try {
          run.apply(null, arguments);
        } catch (e) {}
      };
    });
    target.q = [];
    target.loaded = true;
    w[NAME] = target;
    for (var i = 0; i < queued.length; i++) {
      var call = queued[i];
      if (call && target[call[0]]) target[call[0]].apply(null, [].slice.call(call, 1));
    }
    w.addEventListener("pagehide", beacon);
    d.addEventListener("visibilitychange", function () {
      if (d.visibilityState === "hidden") beacon();
    });
    schedule(0);
  } catch (e) {}
})(window, document, NAME_ARG, COMMANDS_ARG, BATCH_ARG);
`;

/** The script as served: the commands and names it shares with the server filled in. */
export const TRACKING_SCRIPT = SOURCE.replace("NAME_ARG", JSON.stringify(TRACKING_GLOBAL))
  .replace("COMMANDS_ARG", JSON.stringify(BROWSER_COMMANDS))
  .replace("BATCH_ARG", String(Math.min(20, MAX_WEB_EVENTS_PER_BATCH)));

export interface ServedScript {
  readonly text: Buffer;
  readonly gzipped: Buffer;
  readonly etag: string;
}

/** Compressed and fingerprinted once, when the server starts. */
export function servedScript(source: string = TRACKING_SCRIPT): ServedScript {
  const text = Buffer.from(source, "utf8");
  return { text, gzipped: gzipSync(text, { level: 9 }), etag: `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"` };
}
