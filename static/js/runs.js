/* /runs/: "collect now" without a page reload, and live status of queued/running rows (polls every second). */
import { follow } from "./follow.js";
import { postForm, showMessage } from "./post.js";

const DONE = ["succeeded", "failed", "skipped"];
const REFRESH_PENDING = ["queued", "running"];

function update(row, run) {
  row.dataset.status = run.status;
  const badge = row.querySelector("[data-role=status]");
  badge.textContent = run.status;
  badge.className = "status " + run.status;
  row.querySelector("[data-role=duration]").textContent = run.duration;
  row.querySelector("[data-role=snapshots]").textContent = run.snapshots_added;
  row.querySelector("[data-role=rows]").textContent = run.rows_added.toLocaleString("en-US");
  row.dataset.refreshStatus = run.refresh_status || "";
  const refresh = row.querySelector("[data-role=refresh]");
  refresh.textContent = "";
  const refreshBadge = document.createElement("span");
  refreshBadge.className = run.refresh_status ? "status " + run.refresh_status : "muted";
  refreshBadge.textContent = run.refresh_status || "—";
  refresh.appendChild(refreshBadge);
  refresh.title = run.refresh_error || "";
  row.querySelector("[data-role=error]").textContent =
    [run.error, run.refresh_error ? "Refresh: " + run.refresh_error : ""].filter(Boolean).join(" ");
}

// Follows a queued or running row (or one whose refresh is pending) until its run and refresh are done.
function poll(row) {
  if (row.dataset.polling) return;
  row.dataset.polling = "1";
  follow(row.dataset.statusUrl, function (run) { update(row, run); }, function (run) {
    if (run.done) delete row.dataset.polling;
    return run.done;
  }, 1000);
}

function start(table) {
  table.querySelectorAll("tbody tr[data-run-id]").forEach(function (row) {
    if (DONE.indexOf(row.dataset.status) < 0 || REFRESH_PENDING.indexOf(row.dataset.refreshStatus) >= 0) poll(row);
  });

  document.querySelectorAll("form.collect-form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      postForm(form)
        .then(function (run) {
          const empty = table.querySelector("tr.empty-row");
          if (empty) empty.remove();
          table.tBodies[0].insertAdjacentHTML("afterbegin", run.row_html);
          poll(table.tBodies[0].rows[0]);
        })
        .catch(function (err) {
          showMessage("collect-messages", "Collection of " + form.dataset.target + " not queued: " + err.message);
        })
        .finally(function () { button.disabled = false; });
    });
  });
}

const table = document.getElementById("runs-table");
if (table) start(table);
