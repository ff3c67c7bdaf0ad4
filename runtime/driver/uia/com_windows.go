//go:build windows

package uia

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"github.com/go-ole/go-ole"
)

// The COM layer: one OS thread, locked, with COM initialised, runs every
// COM call of a driver; interface pointers are raw and their vtables are
// called by index with syscall.SyscallN, every HRESULT checked, every
// interface released by the code that got it.

// comThread serves COM calls on one locked OS thread. UI Automation
// objects must be used from the apartment that made them; one thread
// also keeps calls from racing in providers that do not expect it.
type comThread struct {
	calls chan func()
	mu    sync.Mutex
	done  bool
}

// startCOM starts the COM thread: CoInitializeEx in the multithreaded
// apartment, which UI Automation recommends for clients (no message pump
// needed for cross-process calls).
func startCOM() (*comThread, error) {
	t := &comThread{calls: make(chan func())}
	errc := make(chan error, 1)
	go func() {
		// The thread stays locked and ends with the goroutine: after
		// CoUninitialize it is no thread to hand back to the scheduler.
		runtime.LockOSThread()
		if err := ole.CoInitializeEx(0, ole.COINIT_MULTITHREADED); err != nil {
			var oe *ole.OleError
			if !errors.As(err, &oe) || oe.Code() != 1 { // S_FALSE: already initialised
				errc <- fmt.Errorf("CoInitializeEx: %w", err)
				return
			}
		}
		errc <- nil
		for f := range t.calls {
			f()
		}
		ole.CoUninitialize()
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	return t, nil
}

// do runs f on the COM thread and returns its error.
func (t *comThread) do(f func() error) error {
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return errors.New("uia: the driver is closed")
	}
	errc := make(chan error, 1)
	t.calls <- func() {
		defer func() {
			// A provider crashing inside a call must not take the
			// driver's process down with an unrecovered panic on a
			// thread nobody waits on.
			if r := recover(); r != nil {
				errc <- fmt.Errorf("uia: COM call panicked: %v", r)
			}
		}()
		errc <- f()
	}
	t.mu.Unlock()
	return <-errc
}

// stop ends the COM thread after the calls under way.
func (t *comThread) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.done {
		t.done = true
		close(t.calls)
	}
}

// com is a COM interface pointer. The memory it points to is COM's, never
// Go's, so keeping it in an unsafe.Pointer is safe for the collector.
type com struct{ p unsafe.Pointer }

func (c com) null() bool { return c.p == nil }

// method returns the address of vtable entry i.
func (c com) method(i int) uintptr {
	vtbl := *(*unsafe.Pointer)(c.p)
	return *(*uintptr)(unsafe.Add(vtbl, uintptr(i)*unsafe.Sizeof(uintptr(0))))
}

// call calls vtable entry i with the object as first argument and checks
// the HRESULT: negative is a failure (S_FALSE, 1, is a success).
//
// Arguments are often Go pointers converted to uintptr by the caller
// (out parameters); go:uintptrescapes moves what they point to to the
// heap and keeps it alive for the call, as for syscall's own Proc.Call,
// so a stack growth cannot leave COM writing into a moved stack.
//
//go:uintptrescapes
func (c com) call(name string, i int, args ...uintptr) error {
	if c.p == nil {
		return fmt.Errorf("%s: called on a null interface", name)
	}
	all := append([]uintptr{uintptr(c.p)}, args...)
	hr, _, _ := syscall.SyscallN(c.method(i), all...)
	if int32(hr) < 0 {
		return &comError{op: name, err: ole.NewError(hr)}
	}
	return nil
}

// comError is a failed COM call: the method and its HRESULT, named when
// UIA's or COM's; it unwraps to go-ole's error.
type comError struct {
	op  string
	err *ole.OleError
}

func (e *comError) Error() string {
	return e.op + ": " + hresultText(uint32(e.err.Code()))
}

func (e *comError) Unwrap() error { return e.err }

// out calls a method whose last argument receives an interface pointer,
// and returns it. A success with a null pointer (no first child, no
// element at a point) gives a null com and no error.
//
//go:uintptrescapes
func (c com) out(name string, i int, args ...uintptr) (com, error) {
	var p unsafe.Pointer
	err := c.call(name, i, append(args, uintptr(unsafe.Pointer(&p)))...)
	return com{p}, err
}

// release releases the interface (IUnknown::Release, entry 2); a null one
// is ignored, so defers need no checks.
func (c com) release() {
	if c.p != nil {
		syscall.SyscallN(c.method(2), uintptr(c.p))
	}
}

// queryInterface asks for another interface of the object (entry 0).
func (c com) queryInterface(iid *ole.GUID) (com, error) {
	return c.out("QueryInterface", 0, uintptr(unsafe.Pointer(iid)))
}

// create makes a COM object (CoCreateInstance) and returns the interface.
func create(clsid, iid *ole.GUID) (com, error) {
	unk, err := ole.CreateInstance(clsid, iid)
	if err != nil {
		var oe *ole.OleError
		if errors.As(err, &oe) {
			return com{}, &comError{op: "CoCreateInstance(" + clsid.String() + ")", err: oe}
		}
		return com{}, err
	}
	return com{unsafe.Pointer(unk)}, nil
}

// bstr is a BSTR made for an argument, freed by free.
type bstr struct{ p *int16 }

func newBSTR(s string) bstr { return bstr{ole.SysAllocString(s)} }

func (b bstr) arg() uintptr { return uintptr(unsafe.Pointer(b.p)) }

func (b bstr) free() {
	if b.p != nil {
		ole.SysFreeString(b.p)
	}
}
