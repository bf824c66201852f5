;; docs/editors.md's Emacs recipe, run in batch mode: opens the file named
;; after `-l eglot.el`, waits for eglot's diagnostics (flymake), writes
;; them (LINE:COLUMN TEXT, 1-based, character columns) to $OUT.
(package-initialize)
(require 'yaml-mode)
(require 'eglot)
;; The recipe:
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((yaml-mode yaml-ts-mode) . ("heatcap" "lsp"))))
(add-hook 'yaml-mode-hook #'eglot-ensure)
(find-file (car command-line-args-left))
;; eglot-ensure connects after the next command; batch mode runs none.
(run-hooks 'post-command-hook)
(let ((deadline (+ (float-time) 15)))
  (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
    (accept-process-output nil 0.2)
    (when (eglot-current-server) (flymake-start))))
(let ((lines (mapcar (lambda (d)
                       (format "%d:%d %s" (line-number-at-pos (flymake-diagnostic-beg d))
                               (save-excursion (goto-char (flymake-diagnostic-beg d))
                                               (1+ (current-column)))
                               (flymake-diagnostic-text d)))
                     (flymake-diagnostics))))
  (with-temp-file (getenv "OUT")
    (dolist (l lines) (insert l "\n"))))
(kill-emacs 0)
