;;; check.el --- `jobspec lsp' in Emacs's eglot, in batch mode.  -*- lexical-binding: t -*-
;;
;; emacs --batch -l test/lsp/emacs/check.el FILE [LINE:COL]
;;
;; Loads the setup docs/EDITORS.md shows (test/lsp/emacs/init.el, beside this file), opens
;; FILE, connects eglot as eglot-ensure does, and prints each Flymake diagnostic as
;; "LINE:COL: TYPE: MESSAGE".  With LINE:COL (from 1), it then asks eglot for the quick
;; fixes there (eglot-code-actions with the kind "quickfix", as M-x eglot-code-actions
;; does), applies the one offered, saves the file and prints "fixed: " and the line.
;; Exits 1 when no diagnostic comes within 10 s, or the fix cannot be made.
;; Needs Debian's emacs-nox, elpa-eglot and elpa-yaml-mode; test/lsp/emacs_test.py runs it.

(require 'flymake)
(package-activate-all)  ; what Emacs does at startup, and batch mode does not: yaml-mode
(load (expand-file-name "init.el" (file-name-directory load-file-name)) nil t)

(defun jobspec-check--fail (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n") #'external-debugging-output)
  (kill-emacs 1))

(defun jobspec-check--wait (what condition)
  "Wait up to 10 s for CONDITION, running timers and the server's output."
  (let ((deadline (+ (float-time) 10)))
    (while (and (not (funcall condition)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (when (bound-and-true-p flymake-mode) (flymake-start))))
  (or (funcall condition) (jobspec-check--fail "timed out waiting for %s" what)))

(let* ((file (pop command-line-args-left))
       (at (pop command-line-args-left))
       (eglot-sync-connect t)
       (eglot-autoshutdown t))
  (find-file file)
  (unless (eglot-current-server)
    (apply #'eglot--connect (eglot--guess-contact)))
  (jobspec-check--wait "the server" #'eglot-current-server)
  (jobspec-check--wait "diagnostics" #'flymake-diagnostics)
  (dolist (d (sort (flymake-diagnostics)
                   (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
    (let ((beg (flymake-diagnostic-beg d)))
      (princ (format "%d:%d: %s: %s\n" (line-number-at-pos beg)
                     (save-excursion (goto-char beg) (1+ (current-column)))
                     (flymake-diagnostic-type d) (flymake-diagnostic-text d)))))
  (when at
    (let* ((place (mapcar #'string-to-number (split-string at ":")))
           (tick (buffer-modified-tick)))
      (goto-char (point-min))
      (forward-line (1- (car place)))
      (forward-char (1- (cadr place)))
      (eglot-code-actions (point) (1+ (point)) "quickfix" t)
      (when (= tick (buffer-modified-tick))
        (jobspec-check--fail "the quick fix made no edit"))
      (save-buffer)
      (princ (format "fixed: %s\n" (buffer-substring (line-beginning-position)
                                                     (line-end-position))))))
  (kill-emacs 0))
