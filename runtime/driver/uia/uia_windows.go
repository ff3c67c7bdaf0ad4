//go:build windows

package uia

import (
	"fmt"
	"unsafe"

	"github.com/go-ole/go-ole"
)

// IUIAutomation through vtables. Indexes are the methods' positions in
// UIAutomationClient.h, IUnknown's three first.

var (
	clsidCUIAutomation      = ole.NewGUID("{ff48dba4-60ef-4201-aa87-54103eef594e}")
	iidIUIAutomation        = ole.NewGUID("{30cbe57d-d9d0-452a-ab13-7ac5ac4825ee}")
	iidIUIAutomationElement = ole.NewGUID("{d22108aa-8ac5-49a5-837b-37bbb3d7591e}")
)

// IUIAutomation methods.
const (
	uiaElementFromHandleBuildCache = 10
	uiaElementFromPointBuildCache  = 11
	uiaGetFocusedElementBuildCache = 12
	uiaGetControlViewWalker        = 14
	uiaCreateCacheRequest          = 20
)

// IUIAutomationElement methods.
const (
	elSetFocus               = 3
	elGetCachedPropertyValue = 12
	elGetCurrentPatternAs    = 14
	elGetCurrentName         = 23
	elGetClickablePoint      = 84
)

// IUIAutomationTreeWalker and IUIAutomationCacheRequest methods.
const (
	walkerFirstChildBuildCache  = 10
	walkerNextSiblingBuildCache = 12
	cacheAddProperty            = 3
)

// patternCalls are the pattern interfaces and methods behind each
// PatternOp (OpFocus is the element's own SetFocus).
var patternCalls = map[PatternOp]struct {
	pattern int
	iid     *ole.GUID
	method  int
}{
	OpInvoke:         {PatternInvoke, ole.NewGUID("{fb377fbe-8ea6-46d5-9c73-6499642d3059}"), 3},
	OpToggle:         {PatternToggle, ole.NewGUID("{94cf8058-9b8d-4ab9-8bfd-4cd0a33c8c70}"), 3},
	OpSelect:         {PatternSelectionItem, ole.NewGUID("{a8efa66a-0fda-421a-9194-38021f3578ea}"), 3},
	OpAddToSelection: {PatternSelectionItem, ole.NewGUID("{a8efa66a-0fda-421a-9194-38021f3578ea}"), 4},
	OpExpand:         {PatternExpandCollapse, ole.NewGUID("{619be086-1f4e-4ee4-bafa-210128738730}"), 3},
	OpCollapse:       {PatternExpandCollapse, ole.NewGUID("{619be086-1f4e-4ee4-bafa-210128738730}"), 4},
	OpSetValue:       {PatternValue, ole.NewGUID("{a94cd8b1-0844-4cd6-9d2d-640537ab39e9}"), 3},
	OpScrollIntoView: {PatternScrollItem, ole.NewGUID("{b488300f-d015-4f19-9c29-bb595e3645ef}"), 3},
}

// cacheProps are the properties every walk caches: what Node holds.
var cacheProps = func() []int {
	ps := []int{
		propRuntimeID, propBoundingRectangle, propControlType, propLocalizedControlType, propName,
		propAccessKey, propHasKeyboardFocus, propIsKeyboardFocusable, propIsEnabled, propAutomationID,
		propClassName, propHelpText, propIsPassword, propNativeWindowHandle, propIsOffscreen,
		propFrameworkID, propLabeledBy, propValueValue, propValueIsReadOnly, propGridItemRow, propGridItemColumn,
		propExpandCollapseState, propSelectionItemIsSelected, propToggleState, propIsDialog,
	}
	for _, pa := range patternAvailability {
		ps = append(ps, pa.prop)
	}
	return ps
}()

// winAuto is the automation of a Windows session.
type winAuto struct {
	th     *comThread
	uia    com // IUIAutomation
	walker com // the control view walker
	req    com // the cache request of cacheProps
	// els are the elements of the last walk and of point and focus
	// look-ups since, by Ref; released when the next walk starts.
	els  map[string]com
	seq  int // numbers elements without a RuntimeId
	user *user32
}

// newWinAuto creates CUIAutomation, the control view walker and the cache
// request on a new COM thread.
func newWinAuto() (*winAuto, error) {
	th, err := startCOM()
	if err != nil {
		return nil, err
	}
	a := &winAuto{th: th, els: map[string]com{}, user: newUser32()}
	err = th.do(func() error {
		var err error
		if a.uia, err = create(clsidCUIAutomation, iidIUIAutomation); err != nil {
			return fmt.Errorf("UI Automation (CUIAutomation): %w", err)
		}
		if a.walker, err = a.uia.out("get_ControlViewWalker", uiaGetControlViewWalker); err != nil {
			return err
		}
		if a.req, err = a.uia.out("CreateCacheRequest", uiaCreateCacheRequest); err != nil {
			return err
		}
		for _, p := range cacheProps {
			if err := a.req.call("AddProperty", cacheAddProperty, uintptr(p)); err != nil {
				return fmt.Errorf("property %d: %w", p, err)
			}
		}
		return nil
	})
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("uia: %w", err)
	}
	return a, nil
}

// Close releases every interface and ends the COM thread.
func (a *winAuto) Close() error {
	err := a.th.do(func() error {
		a.releaseAll()
		a.req.release()
		a.walker.release()
		a.uia.release()
		a.req, a.walker, a.uia = com{}, com{}, com{}
		return nil
	})
	a.th.stop()
	return err
}

// releaseAll releases the elements kept for acting.
func (a *winAuto) releaseAll() {
	for _, el := range a.els {
		el.release()
	}
	a.els = map[string]com{}
	a.seq = 0
}

// Walk walks a window's control view into Nodes, depth first, within the
// limits. Elements that vanish during the walk (UIA_E_ELEMENTNOTAVAILABLE)
// are left out rather than failing the walk.
func (a *winAuto) Walk(window string, lim Limits) (*Node, error) {
	var root *Node
	err := a.th.do(func() error {
		hwnd, err := a.user.handle(window)
		if err != nil {
			return err
		}
		a.releaseAll()
		el, err := a.uia.out("ElementFromHandleBuildCache", uiaElementFromHandleBuildCache, hwnd, uintptr(a.req.p))
		if err != nil {
			return err
		}
		if el.null() {
			return fmt.Errorf("window %s has no UI Automation element", window)
		}
		count := 0
		root, err = a.walk(el, 0, lim, &count)
		return err
	})
	return root, err
}

// walk reads an element (which it keeps) and its children.
func (a *winAuto) walk(el com, depth int, lim Limits, count *int) (*Node, error) {
	n, err := a.read(el)
	if err != nil {
		el.release()
		return nil, err
	}
	*count++
	if depth >= lim.Depth {
		return n, nil
	}
	child, err := a.walker.out("GetFirstChildElementBuildCache", walkerFirstChildBuildCache, uintptr(el.p), uintptr(a.req.p))
	for err == nil && !child.null() {
		if *count >= lim.Nodes {
			child.release()
			break
		}
		next, nerr := a.walker.out("GetNextSiblingElementBuildCache", walkerNextSiblingBuildCache, uintptr(child.p), uintptr(a.req.p))
		if cn, cerr := a.walk(child, depth+1, lim, count); cerr == nil {
			n.Children = append(n.Children, cn)
		}
		child, err = next, nerr
	}
	return n, nil
}

// read makes a Node of an element's cached properties and keeps the
// element under the node's Ref.
func (a *winAuto) read(el com) (*Node, error) {
	v := map[int]any{}
	for _, p := range cacheProps {
		val, err := cached(el, p)
		if err != nil {
			return nil, err
		}
		if val != nil {
			v[p] = val
		}
	}
	n := nodeOf(v)
	if n.Ref == "" {
		a.seq++
		n.Ref = fmt.Sprintf("w%d", a.seq)
	}
	// A RuntimeId seen before is the same element (a point or focus
	// look-up of an element of the last walk): the newer interface
	// replaces the older, and the Ref stays what the walk said.
	if old, ok := a.els[n.Ref]; ok {
		old.release()
	}
	a.els[n.Ref] = el
	return n, nil
}

// cached reads one cached property as a Go value: string, bool, int32,
// float64 or []any for arrays; nil for "not supported" (UIA's reserved
// IUnknown) and for element-valued properties.
func cached(el com, id int) (any, error) {
	var v ole.VARIANT
	ole.VariantInit(&v)
	if err := el.call("GetCachedPropertyValue", elGetCachedPropertyValue, uintptr(id), uintptr(unsafe.Pointer(&v))); err != nil {
		return nil, err
	}
	defer ole.VariantClear(&v)
	if v.VT&ole.VT_ARRAY != 0 {
		return v.ToArray().ToValueArray(), nil
	}
	switch val := v.Value().(type) {
	case string, bool, int32, float64:
		return val, nil
	case *ole.IUnknown:
		if id == propLabeledBy && val != nil {
			return labelName(com{unsafe.Pointer(val)}), nil
		}
	}
	return nil, nil
}

// labelName is the current Name of a LabeledBy element ("" when it is
// UIA's "not supported" object, which is no element). The VARIANT keeps
// its own reference; the interface queried here is released here.
func labelName(unk com) string {
	el, err := unk.queryInterface(iidIUIAutomationElement)
	if err != nil || el.null() {
		return ""
	}
	defer el.release()
	var name *uint16
	if err := el.call("get_CurrentName", elGetCurrentName, uintptr(unsafe.Pointer(&name))); err != nil || name == nil {
		return ""
	}
	defer ole.SysFreeString((*int16)(unsafe.Pointer(name)))
	return ole.BstrToString(name)
}

// FromPoint returns the element at a screen point.
func (a *winAuto) FromPoint(x, y int) (*Node, error) {
	var n *Node
	err := a.th.do(func() error {
		args := append(pointArgs(x, y), uintptr(a.req.p))
		el, err := a.uia.out("ElementFromPointBuildCache", uiaElementFromPointBuildCache, args...)
		if err != nil {
			return err
		}
		if el.null() {
			return fmt.Errorf("no element at %d,%d", x, y)
		}
		n, err = a.read(el)
		if err != nil {
			el.release()
		}
		return err
	})
	return n, err
}

// pointArgs passes a POINT by value: one register on 64-bit Windows, two
// stack words on 32-bit.
func pointArgs(x, y int) []uintptr {
	if unsafe.Sizeof(uintptr(0)) == 8 {
		return []uintptr{uintptr(uint64(uint32(int32(x))) | uint64(uint32(int32(y)))<<32)}
	}
	return []uintptr{uintptr(int32(x)), uintptr(int32(y))}
}

// Focused returns the element with the keyboard focus.
func (a *winAuto) Focused() (*Node, error) {
	var n *Node
	err := a.th.do(func() error {
		el, err := a.uia.out("GetFocusedElementBuildCache", uiaGetFocusedElementBuildCache, uintptr(a.req.p))
		if err != nil {
			return err
		}
		if el.null() {
			return fmt.Errorf("no element has the focus")
		}
		n, err = a.read(el)
		if err != nil {
			el.release()
		}
		return err
	})
	return n, err
}

// Pattern acts on a kept element through a control pattern.
func (a *winAuto) Pattern(ref string, op PatternOp, text string) error {
	return a.th.do(func() error {
		el, ok := a.els[ref]
		if !ok {
			return fmt.Errorf("element %s is not in the last observation", ref)
		}
		if op == OpFocus {
			return el.call("SetFocus", elSetFocus)
		}
		pc, ok := patternCalls[op]
		if !ok {
			return fmt.Errorf("no pattern for %s", op)
		}
		p, err := el.out("GetCurrentPatternAs", elGetCurrentPatternAs, uintptr(pc.pattern), uintptr(unsafe.Pointer(pc.iid)))
		if err != nil {
			return err
		}
		if p.null() {
			return fmt.Errorf("element %s does not support the pattern for %s", ref, op)
		}
		defer p.release()
		if op == OpSetValue {
			b := newBSTR(text)
			defer b.free()
			return p.call("SetValue", pc.method, b.arg())
		}
		return p.call(op.String(), pc.method)
	})
}

// ClickablePoint asks UIA where a click on the element lands.
func (a *winAuto) ClickablePoint(ref string) (float64, float64, bool, error) {
	var pt struct{ X, Y int32 }
	var got int32
	err := a.th.do(func() error {
		el, ok := a.els[ref]
		if !ok {
			return fmt.Errorf("element %s is not in the last observation", ref)
		}
		return el.call("GetClickablePoint", elGetClickablePoint, uintptr(unsafe.Pointer(&pt)), uintptr(unsafe.Pointer(&got)))
	})
	if err != nil {
		// No clickable point is an error for some providers
		// (UIA_E_NOCLICKABLEPOINT); the bounds' center will do.
		return 0, 0, false, nil
	}
	return float64(pt.X), float64(pt.Y), got != 0, nil
}
