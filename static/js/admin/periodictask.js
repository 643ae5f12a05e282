// django-celery-beat's periodic task form: the crontab's help text also says the schedule in words.
// Its template had this inline; here it is a static file so the page runs under script-src 'self'.
// The admin's jQuery is read from its global django.jQuery.
const $ = django.jQuery;
const readable = JSON.parse(document.getElementById("readable-crontabs").textContent);
const help = document.querySelector(".field-crontab .help");
const original = help ? help.innerHTML : "";
$(".field-crontab_translation").hide();
$(".field-crontab").change(function () {
  if (!help) return;
  const words = readable[$("#id_crontab").val()];
  help.innerHTML = original;
  if (words) {
    help.appendChild(document.createElement("br"));
    help.appendChild(document.createTextNode(`Translation: ${words}`));
  }
});
