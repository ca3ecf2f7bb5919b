// clustergen serve: the answer without a reload. The form works without this script (GET ?q=...);
// with it, the form posts JSON, shows each step of an agent's run as it comes, then the answer.
"use strict";

(function () {
  const form = document.getElementById("ask");
  const answer = document.getElementById("answer");
  const progress = document.getElementById("progress");
  const button = document.getElementById("design");
  if (!form || !answer || !progress || !window.fetch || !window.TextDecoder) return;
  let running = null;

  function fields() {
    const data = {};
    for (const [name, value] of new FormData(form).entries()) data[name] = String(value);
    return data;
  }

  function say(text, isError) {
    const line = document.createElement("p");
    line.textContent = text;
    if (isError) line.className = "error";
    progress.appendChild(line);
  }

  function showError(text) {
    answer.replaceChildren();
    const line = document.createElement("p");
    line.className = "error";
    line.setAttribute("role", "alert");
    line.textContent = "Error: " + text;
    answer.appendChild(line);
  }

  function show(message) {
    if (message.progress !== undefined) {
      say(message.progress, false);
    } else if (message.error !== undefined) {
      showError(message.error);
    } else if (message.html !== undefined) {
      answer.innerHTML = message.html; // rendered and escaped by the server
      const kept = answer.querySelector("#verdict");
      const prev = form.querySelector("input[name=prev]");
      const link = answer.querySelector("a[download]");
      if (prev && link) prev.value = link.getAttribute("href").split("/")[2];
      history.pushState(null, "", message.url);
      document.title = (document.getElementById("q").value || "design") + " · clustergen";
      if (kept) kept.focus();
    }
  }

  async function design(event) {
    event.preventDefault();
    if (running) running.abort();
    const controller = new AbortController();
    running = controller;
    progress.replaceChildren();
    say("designing…", false);
    button.setAttribute("aria-busy", "true");
    answer.setAttribute("aria-busy", "true");
    try {
      const response = await fetch("/design", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(fields()),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        showError((await response.text()).replace(/^Error: /, "").trim() || "HTTP " + response.status);
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffered = "";
      for (;;) {
        const { value, done } = await reader.read();
        buffered += decoder.decode(value || new Uint8Array(), { stream: !done });
        let end;
        while ((end = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, end).trim();
          buffered = buffered.slice(end + 1);
          if (line) show(JSON.parse(line));
        }
        if (done) break;
      }
    } catch (err) {
      if (err.name !== "AbortError") showError("the server did not answer (" + err.message + ")");
    } finally {
      if (running === controller) {
        running = null;
        button.removeAttribute("aria-busy");
        answer.removeAttribute("aria-busy");
        progress.replaceChildren();
      }
    }
  }

  form.addEventListener("submit", design);
  // A changed control re-runs the design at once; the answer then says what changed.
  const choices = document.getElementById("choices");
  if (choices) {
    choices.addEventListener("change", function () {
      if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event("submit"));
    });
  }
  window.addEventListener("popstate", function () { window.location.reload(); });

  // The BOM sorts by any column: click (or Enter/Space on) its heading; again to reverse.
  answer.addEventListener("click", function (event) {
    const target = event.target instanceof Element ? event.target.closest("button.sort") : null;
    if (!target) return;
    const table = target.closest("table");
    const th = target.closest("th");
    const col = Number(target.dataset.col);
    const numeric = target.dataset.numeric === "yes";
    const ascending = th.getAttribute("aria-sort") !== "ascending";
    for (const other of table.querySelectorAll("th")) other.setAttribute("aria-sort", "none");
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    function key(row) {
      const cell = row.cells[col];
      if (!numeric) return cell.textContent.toLowerCase();
      const k = cell.dataset.key;
      return k === undefined || k === "" ? null : Number(k);
    }
    rows.sort(function (a, b) {
      const x = key(a), y = key(b);
      if (x === y) return 0;
      if (x === null) return 1; // unknown last, either way
      if (y === null) return -1;
      return (x < y ? -1 : 1) * (ascending ? 1 : -1);
    });
    body.append(...rows);
  });
})();
