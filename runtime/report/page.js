// The one behaviour: hide the steps that passed. Nothing is fetched.
document.getElementById("only-problems").addEventListener("change", function (e) {
  document.body.classList.toggle("only-problems", e.target.checked);
});
