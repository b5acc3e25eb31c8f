/*
 * mallocTrim(): glibc's malloc_trim(0) for Node — hands the C heap's free pages back to the OS.
 *
 * Why: after a burst (1,000 concurrent streams) the daemon's live memory is back to ~20 MB, but
 * glibc keeps the freed socket buffers and ArrayBuffer stores it gave out: ~60 MB of free pages
 * in the middle of its arena, which free() never returns (it only trims the arena's top). The
 * idle collector calls this after its full collection.
 *
 * Node-API is a stable C ABI, so the few declarations needed are written here instead of
 * included: the helper then builds with a C compiler alone (Debian's nodejs ships no headers).
 */
#include <malloc.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef int napi_status; /* an enum in node_api_types.h; 0 is napi_ok */
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);

extern napi_status napi_create_function(napi_env env, const char *name, size_t length, napi_callback cb,
                                        void *data, napi_value *result);
extern napi_status napi_get_boolean(napi_env env, bool value, napi_value *result);
extern napi_status napi_set_named_property(napi_env env, napi_value object, const char *name, napi_value value);

/* Returns true when glibc released memory. */
static napi_value malloc_trim_js(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result = NULL;
  napi_get_boolean(env, malloc_trim(0) == 1, &result);
  return result;
}

/* The Node-API entry points Node looks up by name (what NAPI_MODULE_INIT expands to). */
int32_t node_api_module_get_api_version_v1(void) { return 8; }

napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  napi_value fn = NULL;
  if (napi_create_function(env, "mallocTrim", SIZE_MAX, malloc_trim_js, NULL, &fn) != 0) return NULL;
  if (napi_set_named_property(env, exports, "mallocTrim", fn) != 0) return NULL;
  return exports;
}
