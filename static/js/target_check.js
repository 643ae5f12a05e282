/* Connection check page: polls the check's status every second (js/follow.js) and shows each step as it
   completes. */
import { follow } from "./follow.js";

const DONE = ["passed", "failed"];

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function stepRow(step) {
  const tr = document.createElement("tr");
  tr.appendChild(cell(step.step));
  const result = cell("");
  const badge = document.createElement("span");
  badge.className = "status " + (step.ok ? "succeeded" : "failed");
  badge.textContent = step.ok ? "ok" : "failed";
  result.appendChild(badge);
  tr.appendChild(result);
  tr.appendChild(cell(step.detail));
  return tr;
}

function update(card, check) {
  card.dataset.status = check.status;
  const status = card.querySelector("[data-role=status]");
  status.textContent = check.status;
  status.className = "status " + check.badge;
  const summary = { queued: "waiting for a worker", running: "checking…" }[check.status] || "";
  card.querySelector("[data-role=summary]").textContent = summary;
  const body = card.querySelector("[data-role=steps]");
  if (check.steps.length) {
    body.replaceChildren.apply(body, check.steps.map(stepRow));
  }
  const error = card.querySelector("[data-role=error]");
  error.textContent = check.error;
  // Once: hidden where a failed step already says it.
  const failed = check.steps.filter(function (step) { return !step.ok; }).map(function (step) { return step.detail; });
  error.hidden = !check.error || failed.some(function (detail) { return check.error.indexOf(detail) >= 0; });
}

const card = document.getElementById("target-check");
if (card && DONE.indexOf(card.dataset.status) < 0) {
  follow(card.dataset.statusUrl, function (check) { update(card, check); },
    function (check) { return check.done; }, 500);
}
