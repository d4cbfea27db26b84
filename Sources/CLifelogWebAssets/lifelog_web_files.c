// Written by scripts/web-embed.sh from the list of files in Web/; do not edit (make lint checks it).
// The bytes are embedded from Web/ when this is compiled.
#include "lifelog_web_assets.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char file_0[] = {
#embed "../../Web/app.css" suffix(, ) if_empty()
0};
static const unsigned char file_1[] = {
#embed "../../Web/app.js" suffix(, ) if_empty()
0};
static const unsigned char file_2[] = {
#embed "../../Web/core/activity.js" suffix(, ) if_empty()
0};
static const unsigned char file_3[] = {
#embed "../../Web/core/bytes.js" suffix(, ) if_empty()
0};
static const unsigned char file_4[] = {
#embed "../../Web/core/client.js" suffix(, ) if_empty()
0};
static const unsigned char file_5[] = {
#embed "../../Web/core/codec.js" suffix(, ) if_empty()
0};
static const unsigned char file_6[] = {
#embed "../../Web/core/due.js" suffix(, ) if_empty()
0};
static const unsigned char file_7[] = {
#embed "../../Web/core/envelope-loader.js" suffix(, ) if_empty()
0};
static const unsigned char file_8[] = {
#embed "../../Web/core/envelope.js" suffix(, ) if_empty()
0};
static const unsigned char file_9[] = {
#embed "../../Web/core/log-index.js" suffix(, ) if_empty()
0};
static const unsigned char file_10[] = {
#embed "../../Web/core/merge.js" suffix(, ) if_empty()
0};
static const unsigned char file_11[] = {
#embed "../../Web/core/pairing.js" suffix(, ) if_empty()
0};
static const unsigned char file_12[] = {
#embed "../../Web/core/replica.js" suffix(, ) if_empty()
0};
static const unsigned char file_13[] = {
#embed "../../Web/core/sodium.js" suffix(, ) if_empty()
0};
static const unsigned char file_14[] = {
#embed "../../Web/core/stamp.js" suffix(, ) if_empty()
0};
static const unsigned char file_15[] = {
#embed "../../Web/core/sync.js" suffix(, ) if_empty()
0};
static const unsigned char file_16[] = {
#embed "../../Web/core/time.js" suffix(, ) if_empty()
0};
static const unsigned char file_17[] = {
#embed "../../Web/i18n/en.json" suffix(, ) if_empty()
0};
static const unsigned char file_18[] = {
#embed "../../Web/i18n/pl.json" suffix(, ) if_empty()
0};
static const unsigned char file_19[] = {
#embed "../../Web/icon-maskable.svg" suffix(, ) if_empty()
0};
static const unsigned char file_20[] = {
#embed "../../Web/icon.svg" suffix(, ) if_empty()
0};
static const unsigned char file_21[] = {
#embed "../../Web/index.html" suffix(, ) if_empty()
0};
static const unsigned char file_22[] = {
#embed "../../Web/manifest.webmanifest" suffix(, ) if_empty()
0};
static const unsigned char file_23[] = {
#embed "../../Web/share.css" suffix(, ) if_empty()
0};
static const unsigned char file_24[] = {
#embed "../../Web/share.html" suffix(, ) if_empty()
0};
static const unsigned char file_25[] = {
#embed "../../Web/share.js" suffix(, ) if_empty()
0};
static const unsigned char file_26[] = {
#embed "../../Web/sw.js" suffix(, ) if_empty()
0};
static const unsigned char file_27[] = {
#embed "../../Web/ui/i18n.js" suffix(, ) if_empty()
0};
static const unsigned char file_28[] = {
#embed "../../Web/ui/store.js" suffix(, ) if_empty()
0};
static const unsigned char file_29[] = {
#embed "../../Web/ui/view.js" suffix(, ) if_empty()
0};

static const lifelog_web_file files[] = {
    {"/app.css", "text/css; charset=utf-8", file_0, sizeof file_0 - 1},
    {"/app.js", "text/javascript; charset=utf-8", file_1, sizeof file_1 - 1},
    {"/core/activity.js", "text/javascript; charset=utf-8", file_2, sizeof file_2 - 1},
    {"/core/bytes.js", "text/javascript; charset=utf-8", file_3, sizeof file_3 - 1},
    {"/core/client.js", "text/javascript; charset=utf-8", file_4, sizeof file_4 - 1},
    {"/core/codec.js", "text/javascript; charset=utf-8", file_5, sizeof file_5 - 1},
    {"/core/due.js", "text/javascript; charset=utf-8", file_6, sizeof file_6 - 1},
    {"/core/envelope-loader.js", "text/javascript; charset=utf-8", file_7, sizeof file_7 - 1},
    {"/core/envelope.js", "text/javascript; charset=utf-8", file_8, sizeof file_8 - 1},
    {"/core/log-index.js", "text/javascript; charset=utf-8", file_9, sizeof file_9 - 1},
    {"/core/merge.js", "text/javascript; charset=utf-8", file_10, sizeof file_10 - 1},
    {"/core/pairing.js", "text/javascript; charset=utf-8", file_11, sizeof file_11 - 1},
    {"/core/replica.js", "text/javascript; charset=utf-8", file_12, sizeof file_12 - 1},
    {"/core/sodium.js", "text/javascript; charset=utf-8", file_13, sizeof file_13 - 1},
    {"/core/stamp.js", "text/javascript; charset=utf-8", file_14, sizeof file_14 - 1},
    {"/core/sync.js", "text/javascript; charset=utf-8", file_15, sizeof file_15 - 1},
    {"/core/time.js", "text/javascript; charset=utf-8", file_16, sizeof file_16 - 1},
    {"/i18n/en.json", "application/json", file_17, sizeof file_17 - 1},
    {"/i18n/pl.json", "application/json", file_18, sizeof file_18 - 1},
    {"/icon-maskable.svg", "image/svg+xml", file_19, sizeof file_19 - 1},
    {"/icon.svg", "image/svg+xml", file_20, sizeof file_20 - 1},
    {"/index.html", "text/html; charset=utf-8", file_21, sizeof file_21 - 1},
    {"/manifest.webmanifest", "application/manifest+json", file_22, sizeof file_22 - 1},
    {"/share.css", "text/css; charset=utf-8", file_23, sizeof file_23 - 1},
    {"/share.html", "text/html; charset=utf-8", file_24, sizeof file_24 - 1},
    {"/share.js", "text/javascript; charset=utf-8", file_25, sizeof file_25 - 1},
    {"/sw.js", "text/javascript; charset=utf-8", file_26, sizeof file_26 - 1},
    {"/ui/i18n.js", "text/javascript; charset=utf-8", file_27, sizeof file_27 - 1},
    {"/ui/store.js", "text/javascript; charset=utf-8", file_28, sizeof file_28 - 1},
    {"/ui/view.js", "text/javascript; charset=utf-8", file_29, sizeof file_29 - 1},
};

const lifelog_web_file *lifelog_web_files(size_t *count) {
  *count = sizeof files / sizeof files[0];
  return files;
}
