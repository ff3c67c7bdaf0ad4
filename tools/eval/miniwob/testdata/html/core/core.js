// A stand-in for MiniWoB++'s core.js, written for the harness's tests:
// the same globals and episode calls, and a small seedable generator.
var core = {};
Math.seedrandom = function (seed) {
  var h = 7;
  for (var i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  Math.random = function () { h = (h * 1103515245 + 12345) >>> 0; return h / 4294967296; };
};
var WOB_DONE_GLOBAL = false, WOB_RAW_REWARD_GLOBAL = 0, WOB_REWARD_GLOBAL = 0, WOB_REWARD_REASON = null;
core.EPISODE_MAX_TIME = 10000;
core.EP_TIMER = null;
core.startEpisodeReal = function () {
  genProblem();
  core.EP_TIMER = setTimeout(function () { core.endEpisode(-1, false, 'timed out'); }, core.EPISODE_MAX_TIME);
};
core.endEpisode = function (reward, timeProportional, reason) {
  if (core.EP_TIMER === null) return;
  clearTimeout(core.EP_TIMER);
  core.EP_TIMER = null;
  WOB_RAW_REWARD_GLOBAL = reward;
  WOB_REWARD_GLOBAL = reward;
  WOB_REWARD_REASON = reason;
  WOB_DONE_GLOBAL = true;
};
