package api

import "hackdesk/application"

// Names that api files not yet moved to a feature package (the review
// view, hiring) still use; each is the application package's own.
type applicationJSON = application.View

var (
	toApplicationJSON = application.ToView
	resumeLinksOf     = application.ResumeLinksOf
)
