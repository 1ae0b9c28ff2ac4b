package browser

import (
	"context"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// DownloadTo saves what the page downloads (a link with `download`, a
// blob: URL, an attachment) into dir under the name the page or the
// server gives it, for the test to read. A ".crdownload" file stands for
// one still arriving.
func (p *Page) DownloadTo(dir string) {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior:         browser.SetDownloadBehaviorBehaviorAllow,
			BrowserContextID: chromedp.FromContext(p.tab.ctx).BrowserContextID,
			DownloadPath:     dir,
		})
		return err
	}))
	if err != nil {
		p.t.Fatalf("browser: download to %s: %v", dir, err)
	}
}
