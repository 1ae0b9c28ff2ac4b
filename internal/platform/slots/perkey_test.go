package slots

import "testing"

func TestPerKey(t *testing.T) {
	t.Parallel()
	p := NewPerKey(2)
	r1, ok1 := p.TryAcquire("ann")
	r2, ok2 := p.TryAcquire("ann")
	if !ok1 || !ok2 {
		t.Fatal("the first two places of a key were refused")
	}
	if _, ok := p.TryAcquire("ann"); ok {
		t.Fatal("a third place of the same key was given")
	}
	rb, okb := p.TryAcquire("bob")
	if !okb {
		t.Fatal("another key was refused")
	}
	r1()
	r1() // a second release gives nothing back twice
	r3, ok3 := p.TryAcquire("ann")
	if !ok3 {
		t.Fatal("a released place was not given again")
	}
	if _, ok := p.TryAcquire("ann"); ok {
		t.Fatal("a double release made room for a third place")
	}
	r2()
	r3()
	rb()
	if n := len(p.held); n != 0 {
		t.Fatalf("%d keys still held after every release", n)
	}
}
