/** Far above any real config.json (a few KB; 10,000 keys is about 2 MB): a bigger file is not one. */
export const CONFIG_SIZE_CAP = 8 * 1024 * 1024;
