// The local-mode API key the test tiers start the service with (API_KEYS); no product imports, so
// the black-box acceptance tier shares it.
export const TEST_LOCAL_KEY = 'svc_local_test_key_0123456789abcdef';
