# Misclassification errors of R's rpart (default settings) on given samples.
#
#   Rscript rpart_errors.R TASKS.bin ERRORS.bin
#
# Called by hothorn_table2.py --learner rpart (never by the package or its
# tests). TASKS.bin holds tasks one after another, little-endian:
#   int32 n_train, n_test, n_fits, has_mask
#   float64 X_train (n_train x 2, row-major); int32 y_train (n_train, 0/1)
#   int32 counts (n_fits x n_train, row-major): fit f is trained on row i
#         repeated counts[f, i] times (a bootstrap sample, as the paper's rows)
#   float64 X_test (n_test x 2); int32 y_test (n_test)
#   int32 mask (n_fits x n_test) if has_mask: the rows fit f is validated on
# ERRORS.bin gets one float64 error per fit, in task and fit order.
suppressPackageStartupMessages(library(rpart))
args <- commandArgs(trailingOnly = TRUE)
con <- file(args[1], "rb")
out <- file(args[2], "wb")
rd_int <- function(n) readBin(con, "integer", n, size = 4, endian = "little")
rd_dbl <- function(n) readBin(con, "double", n, size = 8, endian = "little")
repeat {
  h <- rd_int(4)
  if (length(h) < 4) break
  n_tr <- h[1]; n_te <- h[2]; n_fit <- h[3]; has_mask <- h[4] > 0
  x_tr <- matrix(rd_dbl(2 * n_tr), ncol = 2, byrow = TRUE)
  y_tr <- rd_int(n_tr)
  counts <- matrix(rd_int(n_fit * n_tr), nrow = n_fit, byrow = TRUE)
  x_te <- matrix(rd_dbl(2 * n_te), ncol = 2, byrow = TRUE)
  y_te <- rd_int(n_te)
  mask <- if (has_mask) matrix(rd_int(n_fit * n_te), nrow = n_fit, byrow = TRUE)
  learn <- data.frame(x1 = x_tr[, 1], x2 = x_tr[, 2],
                      y = factor(y_tr, levels = c(0L, 1L)))
  test <- data.frame(x1 = x_te[, 1], x2 = x_te[, 2])
  err <- numeric(n_fit)
  for (f in seq_len(n_fit)) {
    rows <- rep.int(seq_len(n_tr), counts[f, ])
    fit <- rpart(y ~ x1 + x2, data = learn[rows, ], method = "class")
    keep <- if (has_mask) mask[f, ] > 0 else rep(TRUE, n_te)
    pred <- predict(fit, test[keep, , drop = FALSE], type = "class")
    err[f] <- mean((as.integer(pred) - 1L) != y_te[keep])
  }
  writeBin(err, out, size = 8, endian = "little")
}
close(con)
close(out)
