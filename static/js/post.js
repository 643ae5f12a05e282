/* The "queue a task" forms of /runs/ and /manage/targets/: post without leaving the page, and say on the page
   when the task was not queued. */

function csrfToken(form) {
  return form.querySelector("input[name=csrfmiddlewaretoken]").value;
}

// Posts form to its action with fetch(); resolves to the JSON answer, rejects with the answer's error.
export function postForm(form) {
  return fetch(form.action, {
    method: "POST", credentials: "same-origin",
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken(form) },
  }).then(function (r) {
    return r.json().catch(function () { return {}; }).then(function (body) {
      if (!r.ok) throw new Error(body.error || "HTTP " + r.status);
      return body;
    });
  });
}

// Shows text in the page's message box (the element with id boxId and its [data-role=message]).
export function showMessage(boxId, text) {
  const box = document.getElementById(boxId);
  box.querySelector("[data-role=message]").textContent = text;
  box.hidden = false;
}
