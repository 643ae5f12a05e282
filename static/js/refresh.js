/* A target's pages: follow its latest refresh (a Recompute's) until it is done, without a reload (js/follow.js). */
import { follow } from "./follow.js";

const PENDING = ["queued", "running"];

function update(box, refresh) {
  box.dataset.status = refresh.status;
  const badge = box.querySelector("[data-role=status]");
  if (badge) {
    badge.textContent = refresh.status;
    badge.className = "status " + refresh.status;
  }
  const note = box.querySelector("[data-role=note]");
  note.textContent = "";
  if (PENDING.indexOf(refresh.status) >= 0) {
    note.textContent = "recomputing…";
  } else if (refresh.status === "failed") {
    note.textContent = refresh.error;
  } else if (refresh.status === "succeeded") {
    const link = document.createElement("a");
    link.href = window.location.href;
    link.textContent = "done: reload for the new figures";
    link.dataset.role = "reload";
    note.appendChild(link);
  }
}

const box = document.getElementById("refresh-state");
if (box && PENDING.indexOf(box.dataset.status) >= 0) {
  follow(box.dataset.statusUrl, function (refresh) { update(box, refresh); },
    function (refresh) { return refresh.done; }, 1000);
}
