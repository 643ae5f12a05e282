/* Follows a task queued on a worker without a reload: polls its status URL (JSON) until the task is done.
   The target pages' refresh, the connection check page, /manage/targets/ and /runs/ use it. */

function getJson(url) {
  return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); });
}

// Polls url every second (3 seconds after a failed request), the first time after firstWait ms, until
// done(body); update(body) each time.
export function follow(url, update, done, firstWait) {
  const tick = function () {
    getJson(url).then(function (body) {
      update(body);
      if (!done(body)) setTimeout(tick, 1000);
    }).catch(function () { setTimeout(tick, 3000); });
  };
  setTimeout(tick, firstWait);
}
