/* The target form: show the fields the chosen mode uses (the connection for awr and nopack, the seed for
   demo); the hidden ones keep their values and the server checks them as before. */
const USED_BY = { dsn: ["awr", "nopack"], username: ["awr", "nopack"], password: ["awr", "nopack"],
                  demo_seed: ["demo"] };

function showUsedFields(form, mode) {
  Object.keys(USED_BY).forEach(function (name) {
    const label = form.querySelector("[data-field=" + name + "]");
    // A field with an error stays in view whatever the mode.
    if (label) label.hidden = !!mode.value && USED_BY[name].indexOf(mode.value) < 0 && !label.classList.contains("has-error");
  });
}

const form = document.getElementById("target-form");
if (form) {
  const mode = form.querySelector("select[name=mode]");
  mode.addEventListener("change", function () { showUsedFields(form, mode); });
  showUsedFields(form, mode);
}
