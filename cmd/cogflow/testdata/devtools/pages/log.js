// Pages of the DevTools import tests report what happened to /log.
function log(m) { navigator.sendBeacon('/log?m=' + encodeURIComponent(m)); }
