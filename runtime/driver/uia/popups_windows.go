//go:build windows

package uia

import "fmt"

// uiaGetRootElementBuildCache is IUIAutomation::GetRootElementBuildCache:
// the desktop, whose children are the top-level windows.
const uiaGetRootElementBuildCache = 9

// Popups walks the desktop's children that are menus: the popup windows
// (class #32768) in which Win32 shows a menu bar's submenus and context
// menus, outside the window that opened them. Each is walked within the
// limits, and its elements are kept for acting until the next Walk
// (which releases them with the rest); the desktop's other children are
// released at once.
func (a *winAuto) Popups(lim Limits) ([]*Node, error) {
	var out []*Node
	err := a.th.do(func() error {
		desk, err := a.uia.out("GetRootElementBuildCache", uiaGetRootElementBuildCache, uintptr(a.req.p))
		if err != nil {
			return err
		}
		if desk.null() {
			return fmt.Errorf("UI Automation has no desktop element")
		}
		defer desk.release()
		child, err := a.walker.out("GetFirstChildElementBuildCache", walkerFirstChildBuildCache, uintptr(desk.p), uintptr(a.req.p))
		count := 0
		for err == nil && !child.null() && count < lim.Nodes {
			next, nerr := a.walker.out("GetNextSiblingElementBuildCache", walkerNextSiblingBuildCache, uintptr(child.p), uintptr(a.req.p))
			ct, cerr := cached(child, propControlType)
			if isMenu, _ := ct.(int32); cerr == nil && int(isMenu) == ctMenu {
				// walk keeps child (read stores it) and its subtree.
				if n, werr := a.walk(child, 0, lim, &count); werr == nil {
					out = append(out, n)
				}
			} else {
				child.release()
			}
			child, err = next, nerr
		}
		if !child.null() {
			child.release() // the node limit was reached first
		}
		return nil
	})
	return out, err
}
