package adbtest

import (
	"net/url"
	"strings"
)

// Other apps' activities that `am start` intents open, as a phone's
// browser, dialer, messaging, e-mail and settings apps would: each shows
// what the intent carried (the URL, the number, the recipient and body),
// so a test can tell that the intent arrived whole. One of them at a time
// is in front of the launcher or the contacts app; back or home closes it.

// Screens App.Screen reports for other apps' activities.
const (
	ScreenBrowser        = "browser"         // com.android.chrome: the URL in its address bar
	ScreenDialer         = "dialer"          // com.android.dialer: the number in its digits field
	ScreenCompose        = "compose"         // messaging or e-mail: recipient, subject, body
	ScreenDeviceSettings = "device-settings" // com.android.settings: one settings page
)

// Packages of the other apps.
const (
	ChromePackage    = "com.android.chrome"
	DialerPackage    = "com.android.dialer"
	MessagingPackage = "com.google.android.apps.messaging"
	GmailPackage     = "com.google.android.gm"
	SettingsPackage  = "com.android.settings"
)

// Foreign is another app's activity in front: its screen, its activity
// (package/class, as dumpsys prints it), its title and its fields by
// name (url, number, to, subject, body, page, package).
type Foreign struct {
	Screen, Activity, Title string
	Fields                  map[string]string
}

// settingsPages are the settings actions the simulated Settings app
// answers: activity class (in SettingsPackage) and page title.
var settingsPages = map[string][2]string{
	"android.settings.SETTINGS":                     {".Settings", "Settings"},
	"android.settings.WIFI_SETTINGS":                {".Settings$WifiSettingsActivity", "Wi-Fi"},
	"android.settings.WIRELESS_SETTINGS":            {".Settings$NetworkDashboardActivity", "Network & internet"},
	"android.settings.AIRPLANE_MODE_SETTINGS":       {".Settings$NetworkDashboardActivity", "Network & internet"},
	"android.settings.BLUETOOTH_SETTINGS":           {".Settings$BluetoothSettingsActivity", "Bluetooth"},
	"android.settings.DISPLAY_SETTINGS":             {".Settings$DisplaySettingsActivity", "Display"},
	"android.settings.SOUND_SETTINGS":               {".Settings$SoundSettingsActivity", "Sound & vibration"},
	"android.settings.LOCATION_SOURCE_SETTINGS":     {".Settings$LocationSettingsActivity", "Location"},
	"android.settings.DATE_SETTINGS":                {".Settings$DateTimeSettingsActivity", "Date & time"},
	"android.settings.BATTERY_SAVER_SETTINGS":       {".Settings$BatterySaverSettingsActivity", "Battery Saver"},
	"android.settings.APPLICATION_DETAILS_SETTINGS": {".applications.InstalledAppDetails", "App info"},
}

// Intent actions the simulated apps handle.
const (
	actView   = "android.intent.action.VIEW"
	actDial   = "android.intent.action.DIAL"
	actSendto = "android.intent.action.SENDTO"
	actInsert = "android.intent.action.INSERT"
	actMain   = "android.intent.action.MAIN"
)

// amIntent is what `am start` was given.
type amIntent struct {
	action, data, component, pkg string
	categories                   []string
	extras                       map[string]string
}

// String spells the intent as am's "Starting:" line does.
func (in amIntent) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("act", in.action)
	if len(in.categories) > 0 {
		parts = append(parts, "cat=["+strings.Join(in.categories, ",")+"]")
	}
	add("dat", in.data)
	add("pkg", in.pkg)
	add("cmp", in.component)
	if len(in.extras) > 0 {
		parts = append(parts, "(has extras)")
	}
	return "Intent { " + strings.Join(parts, " ") + " }"
}

// launchResult is what resolving an intent did: the activity am reports
// it displayed ("" when nothing resolved), and whether the activity is
// missing (am -n of a class that does not exist).
type launchResult struct {
	activity string
	noClass  bool
}

// startIntent resolves the intent against the simulated apps and brings
// the activity that handles it to the front; the caller holds no lock.
func (a *App) startIntent(in amIntent) launchResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	if in.component != "" {
		return a.startComponent(in)
	}
	act, f := a.resolve(in)
	if act == "" {
		return launchResult{}
	}
	if in.pkg != "" && !strings.HasPrefix(act, in.pkg+"/") {
		return launchResult{} // setPackage: only that app's activities resolve
	}
	if f != nil {
		a.ext = f
	}
	return launchResult{activity: act}
}

// startComponent is `am start -n`: the contacts app's main activity, or
// one of the other apps' activities by name.
func (a *App) startComponent(in amIntent) launchResult {
	cmp := fullName(in.component)
	if cmp == fullName(ContactsPackage+"/"+ContactsActivity) {
		a.start()
		return launchResult{activity: ContactsPackage + "/" + ContactsActivity}
	}
	if strings.HasPrefix(cmp, SettingsPackage+"/") {
		for action, page := range settingsPages {
			if fullName(SettingsPackage+"/"+page[0]) == cmp && action != "android.settings.APPLICATION_DETAILS_SETTINGS" {
				in.action = action
				act, f := a.resolve(in)
				a.ext = f
				return launchResult{activity: act}
			}
		}
	}
	return launchResult{noClass: true}
}

// fullName spells "pkg/.Cls" as "pkg/pkg.Cls".
func fullName(c string) string {
	pkg, cls, _ := strings.Cut(c, "/")
	if strings.HasPrefix(cls, ".") {
		return pkg + "/" + pkg + cls
	}
	return c
}

// resolve finds the activity for an implicit intent and the screen it
// shows; a nil screen with an activity is an activity that finishes at
// once (App info for a package that is not installed).
func (a *App) resolve(in amIntent) (string, *foreign) {
	scheme, rest, _ := strings.Cut(in.data, ":")
	scheme = strings.ToLower(scheme)
	switch {
	case in.action == actView && (scheme == "http" || scheme == "https"):
		return ChromePackage + "/com.google.android.apps.chrome.Main", &foreign{screen: ScreenBrowser,
			activity: ChromePackage + "/com.google.android.apps.chrome.Main", title: "Chrome",
			fields: [][2]string{{"url", in.data}}}
	case (in.action == actDial || in.action == actView) && scheme == "tel":
		act := DialerPackage + "/.main.impl.MainActivity"
		return act, &foreign{screen: ScreenDialer, activity: act, title: "Phone",
			fields: [][2]string{{"number", unescape(rest)}}}
	case in.action == actDial && in.data == "":
		act := DialerPackage + "/.main.impl.MainActivity"
		return act, &foreign{screen: ScreenDialer, activity: act, title: "Phone", fields: [][2]string{{"number", ""}}}
	case in.action == actSendto && (scheme == "smsto" || scheme == "sms"):
		act := MessagingPackage + "/.ui.conversation.LaunchConversationActivity"
		return act, &foreign{screen: ScreenCompose, activity: act, title: "New conversation",
			fields: [][2]string{{"to", unescape(rest)}, {"body", in.extras["sms_body"]}}}
	case in.action == actSendto && scheme == "mailto":
		return mailCompose(rest, in.extras)
	case in.action == actInsert && isContactsURI(in.data):
		a.insertContact(in.extras)
		return ContactsPackage + "/.EditActivity", nil
	case in.action == actView && contactOf(in.data) > 0:
		if _, ok := a.contact(contactOf(in.data)); ok {
			a.inApp, a.ext = true, nil
			a.stack = []*frame{{screen: ScreenList}, {screen: ScreenDetail, contactID: contactOf(in.data)}}
			return ContactsPackage + "/.DetailActivity", nil
		}
	}
	if page, ok := settingsPages[in.action]; ok {
		act := SettingsPackage + "/" + page[0]
		f := &foreign{screen: ScreenDeviceSettings, activity: act, title: page[1],
			fields: [][2]string{{"page", page[1]}}}
		if in.action == "android.settings.APPLICATION_DETAILS_SETTINGS" {
			pkg := strings.TrimPrefix(in.data, "package:")
			if !installed(pkg) {
				return act, nil // Settings finishes the page at once: nothing to show
			}
			f.fields = append(f.fields, [2]string{"package", pkg})
		}
		return act, f
	}
	return "", nil
}

// mailCompose opens the e-mail app's compose screen for a mailto: URI,
// its subject and body from the URI's query or the intent's extras.
func mailCompose(rest string, extras map[string]string) (string, *foreign) {
	to, query, _ := strings.Cut(rest, "?")
	q, _ := url.ParseQuery(query)
	pick := func(extra, param string) string {
		if v, ok := extras[extra]; ok {
			return v
		}
		return q.Get(param)
	}
	act := GmailPackage + "/.ComposeActivityGmailExternal"
	return act, &foreign{screen: ScreenCompose, activity: act, title: "Compose",
		fields: [][2]string{{"to", unescape(to)}, {"subject", pick("android.intent.extra.SUBJECT", "subject")},
			{"body", pick("android.intent.extra.TEXT", "body")}}}
}

// unescape decodes a URI's %-escapes, keeping the text when it has none
// that decode.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// installed reports whether the simulated phone has the package.
func installed(pkg string) bool {
	for _, p := range packages {
		if p == pkg {
			return true
		}
	}
	return false
}

// packages are the simulated phone's apps, as `pm list packages` lists them.
var packages = []string{ChromePackage, LauncherPackage, ContactsPackage, DialerPackage, MessagingPackage,
	GmailPackage, SettingsPackage}

// foreign is another app's activity in front (App.ext).
type foreign struct {
	screen, activity, title string
	fields                  [][2]string // name, value in screen order
}

// Foreign returns the other app's activity in front, if one is.
func (a *App) Foreign() (Foreign, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ext == nil {
		return Foreign{}, false
	}
	f := Foreign{Screen: a.ext.screen, Activity: a.ext.activity, Title: a.ext.title, Fields: map[string]string{}}
	for _, kv := range a.ext.fields {
		f.Fields[kv[0]] = kv[1]
	}
	return f, true
}

// renderForeign draws the other app's screen: its title, then one
// labelled text field per value (id PACKAGE:id/NAME), as the real apps
// show the URL, the number or the draft.
func (a *App) renderForeign() *node {
	f := a.ext
	pkg, _, _ := strings.Cut(f.activity, "/")
	col := (&node{class: "android.widget.LinearLayout", pkg: pkg,
		bounds: rect{0, contentTop, ScreenWidth, contentBot}}).add(
		&node{class: "android.widget.TextView", id: pkg + ":id/title", text: f.title, pkg: pkg,
			bounds: rect{42, 123, 1038, 192}})
	for i, kv := range f.fields {
		y := 252 + i*147
		class := "android.widget.EditText"
		if kv[0] == "page" || kv[0] == "package" {
			class = "android.widget.TextView"
		}
		text := kv[1]
		if text == "" {
			text = strings.ToUpper(kv[0][:1]) + kv[0][1:] // the hint, as an empty field shows it
		}
		col.add(&node{class: class, id: pkg + ":id/" + kv[0], text: text, desc: kv[0], pkg: pkg,
			focusable: class == "android.widget.EditText", bounds: rect{42, y, 1038, y + 126}})
	}
	return window(pkg, col)
}
