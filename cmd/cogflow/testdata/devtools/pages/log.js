// Pages of the DevTools import tests report what happened to /log.
// The request is synchronous: the handler that logs returns only once the
// server has the line, so a run that ends right after the step (a viewport
// change is the last step of widgets.json) cannot lose it. A beacon was
// dropped when the run closed its browser context first.
function log(m) {
  const x = new XMLHttpRequest();
  x.open('GET', '/log?m=' + encodeURIComponent(m), false);
  x.send();
}
