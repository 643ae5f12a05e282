/* /manage/targets/: "Test connection" and "Collect now" without leaving the page. Each queues a task on a
   worker; the row follows it (polling its status every second, js/follow.js) and shows the verdict. */
import { follow } from "./follow.js";
import { postForm, showMessage } from "./post.js";

const CHECK_DONE = ["passed", "failed"];

function showCheck(row, check) {
  const cell = row.querySelector("[data-col=check]");
  cell.dataset.status = check.status;
  const link = cell.querySelector("[data-role=check-link]");
  link.href = check.page_url || link.href;
  link.hidden = false;
  const badge = cell.querySelector("[data-role=check-status]");
  badge.textContent = check.status;
  badge.className = "status " + check.badge;
  cell.querySelector("[data-role=check-when]").textContent =
    { queued: "waiting for a worker", running: "checking…" }[check.status] || "just now";
  const error = cell.querySelector("[data-role=check-error]");
  error.textContent = check.status === "failed" ? check.error : "";
  error.hidden = check.status !== "failed";
}

// runsUrl: the runs page, where the run's label links.
function showRun(row, run, runsUrl) {
  const cell = row.querySelector("[data-role=run]");
  cell.dataset.status = run.status;
  cell.textContent = "";
  const label = document.createElement("a");
  label.href = runsUrl;
  label.textContent = "run " + run.id + " ";
  label.title = run.error || "";
  const badge = document.createElement("span");
  badge.className = "status " + run.status;
  badge.dataset.role = "status";
  badge.textContent = run.status;
  cell.append(label, badge);
  if (run.error) {
    const error = document.createElement("div");
    error.className = "sub errtext";
    error.textContent = run.error;
    cell.append(error);
  }
  if (run.status === "succeeded") row.querySelector("[data-col=last_success]").textContent = "just now";
}

// Each form of a row posts with fetch(); its button stays off until started(row, body, enable) calls enable().
function queueOnSubmit(table, selector, what, started) {
  table.querySelectorAll(selector).forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const row = form.closest("tr");
      const button = form.querySelector("button");
      const enable = function () { button.disabled = false; };
      button.disabled = true;
      postForm(form).then(function (body) { started(row, body, enable); }).catch(function (err) {
        enable();
        showMessage("target-messages", what + " of " + row.dataset.target + " not queued: " + err.message);
      });
    });
  });
}

function start(table) {
  // The table names run 0's status URL (/runs/0.json): a run's own is /runs/<id>.json, the runs page /runs/.
  const runStatusUrl = table.dataset.runStatusUrl;
  const runsUrl = runStatusUrl.replace(/\/0\.json$/, "/");

  queueOnSubmit(table, "form.check-form", "Connection check", function (row, check, enable) {
    showCheck(row, check);
    if (CHECK_DONE.indexOf(check.status) >= 0) { enable(); return; }
    follow(check.status_url, function (body) { showCheck(row, Object.assign({}, check, body)); },
      function (body) {
        const over = CHECK_DONE.indexOf(body.status) >= 0;
        if (over) enable();
        return over;
      }, 1000);
  });

  queueOnSubmit(table, "form.collect-form", "Collection", function (row, run, enable) {
    showRun(row, run, runsUrl);
    if (run.done) { enable(); return; }
    const url = runStatusUrl.replace(/\/0\.json$/, "/" + run.id + ".json");
    follow(url, function (body) { showRun(row, body, runsUrl); },
      function (body) { if (body.done) enable(); return body.done; }, 1000);
  });
}

const table = document.getElementById("targets-table");
if (table) start(table);
