// The ElasTraS master dashboard: polls /api/overview once a second and redraws. No libraries, no
// network beyond this master (the page's Content-Security-Policy allows nothing else).
"use strict";

const POLL_MS = 1000;
const EVENTS_SHOWN_MAX = 200;
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];
const DEFAULT_TABLES = JSON.stringify([{
  name: "ITEMS", kind: "PLAIN",
  columns: [{ name: "ID", type: "BIGINT", nullable: false }, { name: "VAL", type: "VARCHAR(100)", nullable: true }],
  primaryKey: ["ID"]
}], null, 1);
const DEFAULT_TREE_TABLES = JSON.stringify([{
  name: "ACCOUNT", kind: "ROOT",
  columns: [{ name: "A_ID", type: "INT", nullable: false }, { name: "BALANCE", type: "BIGINT", nullable: false }],
  primaryKey: ["A_ID"]
}], null, 1);

let lastEventSequence = 0;
let events = [];
const otmColors = new Map();

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") { e.className = v; } else if (k === "style") { e.style.cssText = v; } else { e.setAttribute(k, v); }
  }
  for (const c of children) { e.append(c instanceof Node ? c : (c === null || c === undefined ? "" : String(c))); }
  return e;
}

function fmt(n, digits) {
  if (n === null || n === undefined) { return "–"; }
  return Number(n).toLocaleString("en-US", { maximumFractionDigits: digits === undefined ? 1 : digits });
}

function bytes(n) {
  if (n === null || n === undefined) { return "–"; }
  return (n / (1024 * 1024)).toFixed(0) + " MiB";
}

function millis(micros) {
  if (micros === null || micros === undefined) { return "–"; }
  const ms = micros / 1000;
  return (ms < 10 ? ms.toFixed(2) : ms.toFixed(0)) + " ms";
}

function latencyText(latency) {
  return latency ? millis(latency.p50Micros) + " / " + millis(latency.p99Micros) : "–";
}

function elapsed(ms) {
  return ms < 10000 ? (ms / 1000).toFixed(1) + " s" : Math.round(ms / 1000) + " s";
}

function token() { return $("admin-token").value.trim(); }

function headers(json) {
  const h = {};
  if (token()) { h["Authorization"] = "Bearer " + token(); }
  if (json) { h["Content-Type"] = "application/json"; }
  return h;
}

function colorOf(otmId) {
  if (!otmColors.has(otmId)) { otmColors.set(otmId, COLORS[otmColors.size % COLORS.length]); }
  return otmColors.get(otmId);
}

async function poll() {
  try {
    const response = await fetch("api/overview?after=" + lastEventSequence, { headers: headers(false), cache: "no-store" });
    const body = await response.json();
    if (response.status === 503 && body.role === "standby") {
      showStandby(body);
    } else if (!response.ok) {
      $("poll-error").textContent = "HTTP " + response.status + ": " + (body.error || "");
    } else {
      $("standby-banner").classList.add("hidden");
      render(body);
      $("poll-error").textContent = "";
    }
  } catch (e) {
    $("poll-error").textContent = "cannot reach the master: " + e.message;
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

function showStandby(body) {
  $("role").textContent = "standby";
  $("role").className = "badge standby";
  $("master-id").textContent = body.masterId || "master";
  const banner = $("standby-banner");
  banner.replaceChildren(body.error + " ");
  const active = body.activeMaster;
  if (active && active.dashboard) {
    banner.append(el("a", { href: active.dashboard, id: "active-dashboard-link" }, "Open the active master's dashboard"));
  }
  banner.classList.remove("hidden");
  $("last-update").textContent = "standby at " + new Date().toLocaleTimeString();
}

function render(o) {
  const s = o.summary;
  $("master-id").textContent = s.masterId;
  $("role").textContent = s.role;
  $("role").className = "badge " + s.role;
  $("otm-count").textContent = s.otmsLive;
  $("otm-failed").textContent = s.otmsFailed > 0 ? s.otmsFailed + " failed" : (s.otmsAlive + " heartbeating");
  $("partition-count").textContent = s.partitions;
  $("partition-states").textContent = Object.entries(s.partitionsByState).map(([k, v]) => v + " " + k.toLowerCase()).join(", ");
  $("database-count").textContent = s.databases;
  $("commits-per-second").textContent = fmt(s.commitsPerSecond);
  $("aborts-per-second").textContent = s.abortsPerSecond === null ? "" : fmt(s.abortsPerSecond) + " aborts/s";
  $("issued-cts").textContent = fmt(o.timestamps.issuedCts, 0);
  $("snapshot-cts").textContent = fmt(o.timestamps.snapshotCts, 0);
  $("snapshot-lag").textContent = fmt(o.timestamps.snapshotLagCts, 0);
  $("moves-in-flight").textContent = s.movesInFlight;
  $("moves-finished").textContent = s.movesFinished + " finished"
    + (o.moves.drainingOtms.length > 0 ? ", draining " + o.moves.drainingOtms.join(", ") : "");
  $("latency-p50-p99").textContent = latencyText(s.latency);
  $("latency-commits").textContent = s.latency ? "over " + fmt(s.latency.commits, 0) + " commits, max " + millis(s.latency.maxMicros)
    : "no commits reported in the last interval";
  renderOtms(o.otms);
  renderMap(o.partitions, o.otms);
  renderHot(o.hotPartitions);
  renderMoves(o.moves);
  renderBalancer(o.balancer);
  renderDatabases(o.databases);
  renderEvents(o.events);
  renderCharts(o.series.samples, o.otms);
  $("last-update").textContent = "updated " + new Date().toLocaleTimeString();
}

function renderOtms(otms) {
  const tbody = $("otm-table").querySelector("tbody");
  tbody.replaceChildren(...otms.map(t => {
    const tr = el("tr", { "data-otm": t.otmId, "data-draining": String(t.draining) });
    const live = t.liveness !== "failed" && t.liveness !== "recovering";
    const drain = live ? el("button", { class: "drain", "data-otm": t.otmId, "data-drain": String(!t.draining), type: "button" },
      t.draining ? "Stop drain" : "Drain") : "";
    tr.append(
      el("td", { class: "otm-id", title: t.run ? "run " + t.run + " (its log's name; a restart under the same id is a new run)" : "" },
        t.otmId),
      el("td", { class: "liveness liveness-" + t.liveness }, t.liveness + (t.draining ? ", draining" : "")),
      el("td", { class: "mono" }, t.address || "–"),
      el("td", { class: "num" }, t.msSinceHeartbeat === null ? "–" : t.msSinceHeartbeat + " ms ago"),
      el("td", { class: "num otm-partitions" }, t.partitions),
      el("td", { class: "num otm-commits" }, fmt(t.commitsPerSecond)),
      el("td", { class: "num" }, fmt(t.abortsPerSecond)),
      el("td", { class: "num" }, fmt(t.beginsPerSecond)),
      el("td", { class: "num otm-latency" }, latencyText(t.latency)),
      el("td", { class: "num" }, t.cpuLoad === null ? "–" : (t.cpuLoad * 100).toFixed(0) + " %"),
      el("td", { class: "num" }, t.heapUsedBytes === null ? "–" : bytes(t.heapUsedBytes) + " / " + bytes(t.heapMaxBytes)),
      el("td", {}, drain));
    return tr;
  }));
}

function heat(rate, max) {
  if (rate === null || rate === undefined || max <= 0) { return "hsl(210, 15%, 92%)"; }
  const f = Math.min(1, rate / max);
  // From pale green (idle) to red (the hottest partition).
  return "hsl(" + (120 - 120 * f).toFixed(0) + ", 70%, " + (88 - 30 * f).toFixed(0) + "%)";
}

function renderMap(partitions, otms) {
  const max = Math.max(0, ...partitions.map(p => p.commitsPerSecond || 0));
  const owners = new Map();
  const draining = new Set();
  for (const t of otms) {
    if (t.liveness !== "failed" && t.liveness !== "recovering") { owners.set(t.otmId, []); }
    if (t.draining) { draining.add(t.otmId); }
  }
  const unowned = [];
  for (const p of partitions) {
    if (p.state === "SERVING" && owners.has(p.owner)) { owners.get(p.owner).push(p); } else { unowned.push(p); }
  }
  const columns = [];
  for (const [otmId, list] of owners) {
    columns.push(column(otmId, otmId + (draining.has(otmId) ? " — draining" : ""), list, max, draining.has(otmId)));
  }
  if (unowned.length > 0) { columns.push(column("", "not serving", unowned, max)); }
  $("partition-map").replaceChildren(...columns);
}

function column(otmId, title, list, max, draining) {
  const div = el("div", { class: "owner" + (draining ? " draining" : ""), "data-owner": otmId });
  div.append(el("h3", {}, title + " (" + list.length + ")"));
  for (const p of list) {
    const box = el("span", {
      class: "partition" + (p.state === "SERVING" ? "" : " not-serving") + (p.movingTo ? " moving" : ""),
      "data-partition": p.partitionId, "data-database": p.database, "data-state": p.state,
      style: "background:" + heat(p.commitsPerSecond, max),
      title: p.database + " #" + p.partitionId + " [" + (p.startKey ? JSON.stringify(p.startKey) : "-inf") + ", "
        + (p.endKey ? JSON.stringify(p.endKey) : "+inf") + ") " + p.state + " on " + (p.owner || "nobody")
        + " epoch " + p.epoch + ", " + fmt(p.commitsPerSecond) + " commits/s, latency p50/p99 " + latencyText(p.latency)
        + (p.storeBytes === null ? "" : ", " + bytes(p.storeBytes))
    }, p.database + " #" + p.partitionId + (p.state === "SERVING" ? "" : " " + p.state.toLowerCase())
      + (p.movingTo ? " → " + p.movingTo : ""));
    div.append(box);
  }
  return div;
}

function renderHot(hot) {
  const tbody = $("hot-table").querySelector("tbody");
  if (hot.length === 0) {
    tbody.replaceChildren(el("tr", {}, el("td", { colspan: "6", class: "hint" }, "no commits in the last interval")));
    return;
  }
  tbody.replaceChildren(...hot.map(h => {
    const tr = el("tr", { "data-partition": h.partitionId });
    tr.append(el("td", {}, "#" + h.partitionId), el("td", {}, h.database || "–"), el("td", {}, h.otmId),
      el("td", { class: "num" }, fmt(h.commitsPerSecond)), el("td", { class: "num" }, fmt(h.abortsPerSecond)),
      el("td", { class: "num" }, h.latency ? millis(h.latency.p99Micros) : "–"));
    return tr;
  }));
}

function renderMoves(moves) {
  const tbody = $("move-table").querySelector("tbody");
  if (moves.inFlight.length === 0) {
    tbody.replaceChildren(el("tr", {}, el("td", { colspan: "6", class: "hint" }, "no move under way (" + moves.finished
      + " finished by this master)")));
  } else {
    tbody.replaceChildren(...moves.inFlight.map(m => {
      const tr = el("tr", { "data-partition": m.partitionId });
      const phase = m.phase === "CLOSING" ? "closing on " + m.from : m.phase === "SERVING" ? "serving on " + m.to
        : (m.phase || "?").toLowerCase() + " on " + m.to;
      tr.append(el("td", {}, "#" + m.partitionId), el("td", {}, m.database || "–"), el("td", {}, m.from + " → " + m.to),
        el("td", {}, m.reason), el("td", {}, phase), el("td", { class: "num" }, elapsed(m.elapsedMs)));
      return tr;
    }));
  }
  $("draining-otms").textContent = moves.drainingOtms.length === 0 ? "no OTM is being drained"
    : "draining: " + moves.drainingOtms.join(", ");
}

function renderBalancer(balancer) {
  $("balancer-plan").textContent = balancer.error ? "unavailable: " + balancer.error : balancer.describe;
}

function renderDatabases(databases) {
  const tbody = $("database-table").querySelector("tbody");
  tbody.replaceChildren(...databases.map(d => {
    const tr = el("tr", { "data-database": d.name });
    tr.append(el("td", {}, d.name), el("td", {}, d.partitioning.toLowerCase()), el("td", {}, d.tables.join(", ")),
      el("td", { class: "num" }, d.partitions));
    return tr;
  }));
}

function renderEvents(answer) {
  if (answer.lastSequence < lastEventSequence) { events = []; } // another master process answered
  for (const e of answer.events) { if (e.sequence > lastEventSequence || events.length === 0) { events.push(e); } }
  events = events.filter((e, i, all) => i === all.findIndex(x => x.sequence === e.sequence)).slice(-EVENTS_SHOWN_MAX);
  lastEventSequence = answer.lastSequence;
  $("event-log").replaceChildren(...events.slice().reverse().map(e => {
    const li = el("li", { "data-kind": e.kind });
    li.append(el("span", { class: "mono" }, new Date(e.atMs).toLocaleTimeString()), el("span", { class: "kind" }, e.kind),
      el("span", {}, e.subject + ": " + e.message));
    return li;
  }));
}

function renderCharts(samples, otms) {
  const times = samples.map(s => s.atMs);
  drawChart($("throughput-chart"), times, [{ color: "#1f77b4", values: samples.map(s => s.commitsPerSecond) },
    { color: "#d62728", values: samples.map(s => s.abortsPerSecond) }]);
  const ids = otms.map(t => t.otmId);
  drawChart($("otm-chart"), times, ids.map(id => ({ color: colorOf(id), values: samples.map(s => s.commitsPerSecondByOtm[id] ?? null) })));
  $("otm-legend").replaceChildren(...ids.map(id => {
    const span = el("span", {});
    span.append(el("i", { style: "background:" + colorOf(id) }), id);
    return span;
  }));
  const ms = latency => latency ? latency / 1000 : null;
  drawChart($("latency-chart"), times, [
    { color: "#1f77b4", values: samples.map(s => s.latency ? ms(s.latency.p50Micros) : null) },
    { color: "#d62728", values: samples.map(s => s.latency ? ms(s.latency.p99Micros) : null) }]);
  drawChart($("otm-latency-chart"), times, ids.map(id => ({ color: colorOf(id),
    values: samples.map(s => s.latencyByOtm[id] ? ms(s.latencyByOtm[id].p99Micros) : null) })));
}

function drawChart(canvas, times, lines) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const left = 56, bottom = 18, top = 8, right = 8;
  let max = 0;
  for (const l of lines) { for (const v of l.values) { if (v !== null && v > max) { max = v; } } }
  max = max <= 0 ? 1 : max * 1.1;
  g.strokeStyle = "#d9dde5"; g.fillStyle = "#667085"; g.font = "11px sans-serif"; g.lineWidth = 1;
  for (let i = 0; i <= 4; i++) {
    const y = top + (height - top - bottom) * i / 4;
    g.beginPath(); g.moveTo(left, y); g.lineTo(width - right, y); g.stroke();
    g.fillText(fmt(max * (4 - i) / 4, max < 10 ? 2 : 0), 4, y + 4);
  }
  if (times.length < 2) {
    g.fillText("waiting for two samples…", left + 10, height / 2);
    return;
  }
  const t0 = times[0], t1 = times[times.length - 1];
  const x = t => left + (width - left - right) * (t - t0) / Math.max(1, t1 - t0);
  const y = v => top + (height - top - bottom) * (1 - v / max);
  g.fillText(new Date(t0).toLocaleTimeString(), left, height - 4);
  g.fillText(new Date(t1).toLocaleTimeString(), width - right - 60, height - 4);
  g.lineWidth = 2;
  for (const l of lines) {
    g.strokeStyle = l.color;
    g.beginPath();
    let started = false;
    l.values.forEach((v, i) => {
      if (v === null) { started = false; return; }
      if (started) { g.lineTo(x(times[i]), y(v)); } else { g.moveTo(x(times[i]), y(v)); started = true; }
    });
    g.stroke();
  }
}

async function admin(path, body, what) {
  const result = $("admin-result");
  result.className = "";
  result.textContent = what + "…";
  try {
    const response = await fetch(path, { method: "POST", headers: headers(true), body: body === null ? "{}" : JSON.stringify(body) });
    const answer = await response.json();
    result.className = response.ok ? "ok" : "failed";
    result.textContent = what + ": HTTP " + response.status + "\n" + (response.ok ? JSON.stringify(answer, null, 1) : answer.error);
  } catch (e) {
    result.className = "failed";
    result.textContent = what + " failed: " + e.message;
  }
}

function parseJson(id, what) {
  try { return JSON.parse($(id).value); } catch (e) {
    $("admin-result").className = "failed";
    $("admin-result").textContent = what + " is not valid JSON: " + e.message;
    return undefined;
  }
}

function setup() {
  $("admin-token").value = sessionStorage.getItem("elastras-admin-token") || "";
  $("admin-token").addEventListener("change", () => sessionStorage.setItem("elastras-admin-token", token()));
  $("tenant-tables").value = DEFAULT_TABLES;
  $("database-tables").value = DEFAULT_TREE_TABLES;
  $("tenant-form").addEventListener("submit", ev => {
    ev.preventDefault();
    const tables = parseJson("tenant-tables", "the tables");
    if (tables === undefined) { return; }
    admin("api/admin/tenants", { schema: { name: $("tenant-name").value.trim(), partitioning: "SINGLE_PARTITION", tables } },
      "create tenant " + $("tenant-name").value.trim());
  });
  $("database-form").addEventListener("submit", ev => {
    ev.preventDefault();
    const tables = parseJson("database-tables", "the tables");
    const boundaries = parseJson("database-boundaries", "the boundaries");
    if (tables === undefined || boundaries === undefined) { return; }
    admin("api/admin/databases", { schema: { name: $("database-name").value.trim(), partitioning: "TREE", tables }, rootKeyBoundaries: boundaries },
      "create database " + $("database-name").value.trim());
  });
  $("move-form").addEventListener("submit", ev => {
    ev.preventDefault();
    admin("api/admin/partitions/" + encodeURIComponent($("move-partition").value.trim()) + "/move", { to: $("move-target").value.trim() },
      "move partition " + $("move-partition").value.trim());
  });
  // The OTM table is redrawn every second: one listener on its body serves every row's button.
  $("otm-table").querySelector("tbody").addEventListener("click", ev => {
    const button = ev.target.closest("button.drain");
    if (!button) { return; }
    const otmId = button.getAttribute("data-otm");
    const drain = button.getAttribute("data-drain") === "true";
    admin("api/admin/otms/" + encodeURIComponent(otmId) + "/drain", { drain }, (drain ? "drain " : "stop draining ") + otmId);
  });
  poll();
}

setup();
