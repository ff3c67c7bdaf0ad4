package main

import (
	"fmt"
	"strings"
)

// scripts holds the scripted person of every task: it reads the
// instance (the instruction in #query, the page) and solves it with
// mouse and keyboard.
var scripts = map[string]func(*person) error{}

// register adds a task's script; a name given twice is a programming
// error.
func register(task string, solve func(*person) error) {
	if _, dup := scripts[task]; dup {
		panic("two scripts for " + task)
	}
	scripts[task] = solve
}

// quoted is the first "…" in the instruction.
func quoted(q string) string { return between(q, `"`, `"`) }

// clickSteps is a task solved by clicking elements in order.
func clickSteps(steps ...func(q string) target) func(*person) error {
	return func(h *person) error {
		q := h.query()
		for _, s := range steps {
			if err := h.click(s(q)); err != nil {
				return err
			}
		}
		return nil
	}
}

func fixed(t target) func(string) target { return func(string) target { return t } }

func init() {
	// The element to click is named by the instruction.
	register("click-button", clickSteps(func(q string) target { return withText("#area button", quoted(q)) }))
	register("click-link", clickSteps(func(q string) target { return withText("#area .alink", quoted(q)) }))
	register("click-button-sequence", clickSteps(fixed(withText("#area button", "ONE")), fixed(withText("#area button", "TWO"))))
	register("click-dialog", clickSteps(fixed(css(".ui-dialog-titlebar button"))))
	register("click-dialog-2", clickDialog2)
	register("click-tab", clickSteps(func(q string) target {
		return withText("#area ul a", strings.TrimSuffix(strings.TrimPrefix(q, "Click on "), "."))
	}))
	register("click-collapsible", clickSteps(fixed(css("#area h3")), fixed(withText("#area button", "Submit"))))
	register("click-menu-2", clickMenu2)
	register("choose-list", chooseList)
	register("click-scroll-list", clickScrollList)
}

// menuIcons names the icon of each item of click-menu-2's menu, as a
// person sees it next to the item's label.
var menuIcons = map[string]string{
	"Save": "ui-icon-disk", "Prev": "ui-icon-seek-start", "Stop": "ui-icon-stop", "Play": "ui-icon-play",
	"Next": "ui-icon-seek-end", "Zoom In": "ui-icon-zoomin", "Zoom Out": "ui-icon-zoomout",
}

// menuPlayback are the items under the "Playback" submenu.
var menuPlayback = map[string]bool{"Prev": true, "Stop": true, "Play": true, "Next": true}

// selectOption chooses an option of a closed <select> with the keyboard,
// as a person does without opening the list: focus it by a click (which
// opens the list), close it with Escape, then ArrowDown/ArrowUp to the
// option.
func selectOption(h *person, sel, option string) error {
	opts := strings.Split(h.read(`[...document.querySelector('`+sel+`').options].map(o => o.textContent.trim()).join('\n')`), "\n")
	want, cur := -1, 0
	fmt.Sscan(h.read(`document.querySelector('`+sel+`').selectedIndex`), &cur)
	for i, o := range opts {
		if o == option {
			want = i
		}
	}
	if want < 0 {
		return fmt.Errorf("no option %q in %s (%q)", option, sel, opts)
	}
	if err := h.click(css(sel)); err != nil {
		return err
	}
	for ; cur < want; cur++ {
		if err := h.press(keyDown); err != nil {
			return err
		}
	}
	for ; cur > want; cur-- {
		if err := h.press(keyUp); err != nil {
			return err
		}
	}
	return h.press(keyEnter)
}

func clickDialog2(h *person) error {
	if b := quoted(h.query()); b != "x" {
		return h.click(withText(".ui-dialog-buttonpane button", b))
	}
	return h.click(css(".ui-dialog-titlebar button"))
}

func clickMenu2(h *person) error {
	label := quoted(strings.TrimPrefix(h.query(), `Click the "Menu" button`))
	if label == "" { // the item is named by its icon
		icon := h.read(`[...document.querySelector('#query .ui-icon').classList].find(c => c !== 'ui-icon')`)
		for name, cls := range menuIcons {
			if cls == icon {
				label = name
			}
		}
	}
	if err := h.click(withText("#open-menu", "Menu")); err != nil {
		return err
	}
	if menuPlayback[label] {
		if err := h.click(withText("#menu > li > div", "Playback")); err != nil {
			return err
		}
	}
	return h.click(withText("#menu li > div", label))
}

func chooseList(h *person) error {
	item := between(h.query(), "Select ", " from the list")
	if err := selectOption(h, "#options", item); err != nil {
		return err
	}
	return h.click(withText("#area button", "Submit"))
}

func clickScrollList(h *person) error {
	items := strings.Split(between(h.query(), "Select ", " from the scroll list"), ", ")
	for i, it := range items {
		// Ctrl-click adds the second item to the selection.
		if i > 0 {
			if err := ctrlClick(h, withText("#options option", it)); err != nil {
				return err
			}
			continue
		}
		if err := h.click(withText("#options option", it)); err != nil {
			return err
		}
	}
	return h.click(withText("#area button", "Submit"))
}
