// Package adbtest is a simulated Android device behind a real ADB host
// protocol server, for tests of the adb client, the Android driver and its
// recorder, and of the `adb` command itself. It listens on 127.0.0.1:0 and
// answers what the adb server answers (host:version, host:devices-l,
// host:transport:…, shell:, exec:, …); behind it a small shell interprets
// the commands the driver sends (uiautomator dump, input, am, getevent, …)
// against App, a contacts app whose screens render as uiautomator XML.
//
// Tests drive the device from the person's side with Server.PlayTap,
// PlayText, PlayKey and PlaySwipe (which also appear on `getevent -lt`
// streams, as a finger on a real touchscreen does), break it with
// DropConnections and VanishDevice, and assert the outcome with
// App.Contacts and App.Screen.
//
// The device is a 1080×2400 phone (`wm size`), SDK 33, whose touchscreen
// reports positions up to TouchMax (4095) on /dev/input/event2; hardware
// keys come from /dev/input/event1. Its screens, as uiautomator sees them
// (resource-ids are prefixed with "com.example.contacts:id/"):
//
//   - launcher (com.android.launcher3/.Launcher): icons "Phone",
//     "Messages", "Contacts" (text and content-desc; bounds
//     [540,1900][810,2150]) and "Chrome"; only Contacts does something.
//   - list (.MainActivity): toolbar (id toolbar) titled "Contacts"; search
//     (EditText, hint "Search contacts", filters by name); contact_list
//     (RecyclerView) of contact_row rows with name and phone TextViews,
//     sorted by name; empty ("No contacts"); fab_add (ImageButton,
//     content-desc "Add contact") drawn over the list; in the toolbar,
//     more (ImageButton, content-desc "More options") opens the menu.
//   - menu (a popup window over .MainActivity, dumped alone as the
//     focused window): "Settings" and "Import/export"; choosing one closes
//     the popup first, so back from its screen shows the list.
//   - settings (.SettingsActivity): a "Dark theme" Switch and "About";
//     nothing here imports (exploration's wrong branch).
//   - import (.ImportExportActivity): "Import from .vcf file" opens the
//     file picker, "Export to .vcf file" shows a status line.
//   - files (.FilePickerActivity), titled "Choose a file": DeviceFiles
//     (notes.txt, contacts.vcf, photo.jpg); a file without contacts says
//     so; contacts.vcf adds its two contacts and returns to the list.
//   - detail (.DetailActivity): "Navigate up" (content-desc) button, title
//     = the name; detail_name, detail_phone, detail_email; buttons edit
//     ("Edit") and delete ("Delete").
//   - edit (.EditActivity), titled "Edit contact" or "New contact":
//     name_input, phone_input, email_input (EditTexts; an empty one shows
//     its hint "Name", "Phone", "Email" as text, as Android 8+ does);
//     error ("Name is required"); save ("Save").
//
// Intents open other apps' screens in front of these (intents.go):
// browser (a VIEW URL), dialer (tel:), compose (smsto:, mailto:),
// device-settings (android.settings.*); App.Foreign reports what they
// show. The contacts provider (provider.go) answers `content query` with
// the app's contacts.
//
// Taps go to the deepest clickable view under the point, topmost first;
// a tap on an EditText focuses it; typed text appends to the focused field;
// KEYCODE_DEL deletes a character, KEYCODE_ENTER and TAB move to the next
// field, BACK pops a screen, HOME shows the launcher (the app resumes where
// it was).
//
// The device's shell parses quoting, pipes, ; && || and redirections, and
// knows: echo, cat, rm, grep, sleep, true, false, getprop, wm size|density,
// pm list packages, dumpsys window | activity activities, uiautomator dump
// [FILE|/dev/tty], input [SOURCE] tap|swipe|text|keyevent|keycombination,
// am start [-W] -a|-d|-n|-p|--es (intents.go)|force-stop|broadcast, content
// query (provider.go), monkey -p PKG, screencap [-p] [FILE],
// getevent [-l] [-t] [-p] [-q], settings get|put secure
// default_input_method, ime list|enable|set. `input text` behaves as on a
// device: one word, "%s" is a space, non-ASCII fails with Android's
// NullPointerException; ADBKeyBoard's broadcasts type any text once
// Server.InstallADBKeyboard has selected it. Anything else answers
// "/system/bin/sh: X: inaccessible or not found" (status 127), as mksh
// does.
package adbtest
